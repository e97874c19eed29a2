import type { StoredSummary } from '../../results/summary-schema.js';
import type { CellSummary } from '../../stats/cell-summary.js';
import type { Distribution } from '../../stats/descriptive.js';
import { newcombeDifference, type DifferenceInterval } from '../../stats/newcombe.js';
import type { Proportion } from '../../stats/wilson.js';
import { costOf, priceFor, type PriceChoice } from '../prices.js';

/** One arm of one scenario, as the headline shows it. */
export interface HeadlineRow {
  readonly arm: string;
  readonly runs: number;
  /** Success, or for an impossible scenario the right outcome (an escalation). */
  readonly rate: Proportion;
  /** rate − the baseline arm's rate, with Newcombe's 95% interval; null on the baseline row itself. */
  readonly vsBaseline: DifferenceInterval | null;
  readonly toolCalls: Distribution;
  readonly inputTokens: Distribution;
  readonly outputTokens: Distribution;
  /** Estimated dollars per run (mean tokens × list price); undefined when the model has no price. */
  readonly costPerRun: number | undefined;
  /** Estimated dollars per run that reached the right outcome; undefined with none. */
  readonly costPerSuccess: number | undefined;
  /** Non-zero counts, in summary order. */
  readonly outcomes: ReadonlyArray<readonly [string, number]>;
  readonly verdicts: ReadonlyArray<readonly [string, number]>;
  readonly duplicateSideEffects: number;
}

/** A scenario's arms side by side. */
export interface HeadlineScenario {
  readonly id: string;
  readonly impossible: boolean;
  /** The arm the others are measured against: `none` when the sweep has it, else its first arm. */
  readonly baseline: string;
  readonly rows: readonly HeadlineRow[];
}

export interface Headline {
  readonly scenarios: readonly HeadlineScenario[];
  /** How costs were estimated; undefined when the model is not in the price table. */
  readonly price: PriceChoice | undefined;
  /** Every cell's cost is its records' (prompt-cache reads and writes priced as such), not mean tokens × price. */
  readonly costsRecorded: boolean;
}

const nonZero = (counts: Readonly<Record<string, number>>) => Object.entries(counts).filter(([, n]) => n > 0);

/**
 * The headline of a sweep, from summary.json alone: per scenario, every arm with its
 * rate and interval, its difference from the baseline arm, calls, tokens, estimated cost
 * and what happened. Shared by the HTML report, the Markdown summary and the CSV.
 */
export function headline(summary: StoredSummary): Headline {
  const price = priceFor(summary.model);
  const armOrder = new Map(summary.arms.map((arm, index) => [arm.name, index]));
  const scenarios = summary.scenarios.map((scenario) => {
    const cells = summary.cells
      .filter((cell) => cell.scenario === scenario.id)
      .sort((a, b) => (armOrder.get(a.arm) ?? Infinity) - (armOrder.get(b.arm) ?? Infinity));
    const baselineCell = cells.find((cell) => cell.arm === 'none') ?? cells[0];
    const rateOf = (cell: CellSummary) => (scenario.impossible ? cell.right_outcome : cell.success);
    const rows = cells.map((cell): HeadlineRow => {
      const rate = rateOf(cell);
      // The records' own costs where the summary has them (each call at its model's price, the
      // prompt cache's reads and writes as such); older summaries priced by their mean tokens.
      const costPerRun =
        price === undefined
          ? undefined
          : cell.cost_usd !== undefined && cell.runs > 0
            ? cell.cost_usd / cell.runs
            : costOf(price.price, cell.input_tokens.mean, cell.output_tokens.mean);
      return {
        arm: cell.arm,
        runs: cell.runs,
        rate,
        vsBaseline:
          baselineCell === undefined || cell === baselineCell || cell.runs === 0 || baselineCell.runs === 0
            ? null
            : newcombeDifference(rateOf(baselineCell), rate),
        toolCalls: cell.tool_calls,
        inputTokens: cell.input_tokens,
        outputTokens: cell.output_tokens,
        costPerRun,
        costPerSuccess:
          costPerRun === undefined || rate.successes === 0 ? undefined : (costPerRun * cell.runs) / rate.successes,
        outcomes: nonZero(cell.outcomes),
        verdicts: nonZero(cell.verdicts),
        duplicateSideEffects: cell.duplicate_side_effects,
      };
    });
    return { id: scenario.id, impossible: scenario.impossible, baseline: baselineCell?.arm ?? '', rows };
  });
  return { scenarios, price, costsRecorded: summary.cells.every((cell) => cell.cost_usd !== undefined) };
}
