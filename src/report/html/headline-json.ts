import type { StoredSummary } from '../../results/summary-schema.js';
import { headline } from './headline-data.js';

/** `report --json`: the headline of a sweep, one entry per scenario and arm (docs: README, "Machine-readable output"). */
export interface HeadlineJson {
  /** Bumped when a field changes meaning or goes away; new fields may appear without it. */
  readonly version: 1;
  readonly sweep: string;
  /** The price the costs were estimated at (`model@date`); null when the model has no price. */
  readonly priced_as: string | null;
  readonly scenarios: ReadonlyArray<{
    readonly id: string;
    readonly impossible: boolean;
    readonly baseline_arm: string;
    readonly arms: ReadonlyArray<{
      readonly arm: string;
      readonly runs: number;
      /** Success (for an impossible scenario: escalation) with its 95% Wilson interval, from 0 to 1. */
      readonly rate: { readonly rate: number; readonly low: number; readonly high: number };
      /** rate − the baseline arm's, with Newcombe's 95% interval; null on the baseline arm. */
      readonly vs_baseline: { readonly estimate: number; readonly low: number; readonly high: number } | null;
      readonly tool_calls: { readonly median: number; readonly p95: number; readonly max: number };
      readonly input_tokens: { readonly median: number; readonly p95: number };
      readonly output_tokens: { readonly median: number };
      readonly est_cost_per_run_usd: number | null;
      readonly est_cost_per_success_usd: number | null;
      /** Non-zero counts only. */
      readonly verdicts: Readonly<Record<string, number>>;
      readonly outcomes: Readonly<Record<string, number>>;
      readonly duplicate_side_effects: number;
    }>;
  }>;
}

/** The headline as JSON: what the CSV holds, nested, with numbers unrounded. */
export function headlineJson(summary: StoredSummary, sweep: string): HeadlineJson {
  const { scenarios, price } = headline(summary);
  return {
    version: 1,
    sweep,
    priced_as: price?.pricedAs ?? null,
    scenarios: scenarios.map((scenario) => ({
      id: scenario.id,
      impossible: scenario.impossible,
      baseline_arm: scenario.baseline,
      arms: scenario.rows.map((row) => ({
        arm: row.arm,
        runs: row.runs,
        rate: { rate: row.rate.rate, low: row.rate.low, high: row.rate.high },
        vs_baseline:
          row.vsBaseline === null
            ? null
            : { estimate: row.vsBaseline.estimate, low: row.vsBaseline.low, high: row.vsBaseline.high },
        tool_calls: { median: row.toolCalls.median, p95: row.toolCalls.p95, max: row.toolCalls.max },
        input_tokens: { median: row.inputTokens.median, p95: row.inputTokens.p95 },
        output_tokens: { median: row.outputTokens.median },
        est_cost_per_run_usd: row.costPerRun ?? null,
        est_cost_per_success_usd: row.costPerSuccess ?? null,
        verdicts: Object.fromEntries(row.verdicts),
        outcomes: Object.fromEntries(row.outcomes),
        duplicate_side_effects: row.duplicateSideEffects,
      })),
    })),
  };
}
