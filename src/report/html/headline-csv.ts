import { stringify } from 'csv-stringify/sync';
import type { StoredSummary } from '../../results/summary-schema.js';
import { OUTCOME_KINDS } from '../../loop/outcome.js';
import { VERDICT_ORDER } from './palette.js';
import { headline } from './headline-data.js';

/**
 * Text for a spreadsheet cell: a leading =, +, - or @ would make Excel or Sheets read a
 * scenario name as a formula, so such text gets a leading apostrophe.
 */
export function spreadsheetText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const round = (x: number | undefined, places: number) => (x === undefined ? '' : Number(x.toFixed(places)));

/**
 * The headline as CSV, one row per (scenario, arm) cell, numbers unformatted: for a
 * spreadsheet or a notebook.
 */
export function renderHeadlineCsv(summary: StoredSummary): string {
  const { scenarios, price } = headline(summary);
  const header = [
    'scenario',
    'arm',
    'runs',
    'impossible',
    'rate',
    'rate_low',
    'rate_high',
    'baseline_arm',
    'vs_baseline',
    'vs_baseline_low',
    'vs_baseline_high',
    'tool_calls_median',
    'tool_calls_p95',
    'tool_calls_max',
    'input_tokens_median',
    'input_tokens_p95',
    'output_tokens_median',
    'est_cost_per_run_usd',
    'est_cost_per_success_usd',
    'priced_as',
    ...VERDICT_ORDER.map((verdict) => `verdict_${verdict}`),
    ...OUTCOME_KINDS.map((kind) => `outcome_${kind}`),
    'duplicate_side_effects',
  ];
  const rows = scenarios.flatMap((scenario) =>
    scenario.rows.map((row) => {
      const verdicts = new Map(row.verdicts);
      const outcomes = new Map(row.outcomes);
      return [
        spreadsheetText(scenario.id),
        spreadsheetText(row.arm),
        row.runs,
        String(scenario.impossible),
        row.rate.rate,
        row.rate.low,
        row.rate.high,
        spreadsheetText(scenario.baseline),
        round(row.vsBaseline?.estimate, 4),
        round(row.vsBaseline?.low, 4),
        round(row.vsBaseline?.high, 4),
        row.toolCalls.median,
        row.toolCalls.p95,
        row.toolCalls.max,
        row.inputTokens.median,
        row.inputTokens.p95,
        row.outputTokens.median,
        round(row.costPerRun, 6),
        round(row.costPerSuccess, 6),
        price?.pricedAs ?? '',
        ...VERDICT_ORDER.map((verdict) => verdicts.get(verdict) ?? 0),
        ...OUTCOME_KINDS.map((kind) => outcomes.get(kind) ?? 0),
        row.duplicateSideEffects,
      ];
    }),
  );
  return stringify([header, ...rows]);
}
