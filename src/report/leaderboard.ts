import Table from 'cli-table3';
import type { CellSummary } from '../stats/cell-summary.js';
import { describe } from '../stats/descriptive.js';
import { wilson, type Proportion } from '../stats/wilson.js';
import type { SweepCell } from './read-sweep.js';
import { tableFrame } from './terminal-table.js';

/** One arm's line of the arena: its runs over every scenario, pooled. */
export interface LeaderboardRow {
  readonly rank: number;
  readonly arm: string;
  readonly runs: number;
  /** Success, or an escalation where the scenario is impossible, with its 95% Wilson interval. */
  readonly rightOutcome: Proportion;
  readonly p95ToolCalls: number;
  readonly p95InputTokens: number;
  /** Side effects written more than once, over all runs. */
  readonly duplicateSideEffects: number;
}

/**
 * Ranks arms by right-outcome rate (success, or escalation where the task is impossible),
 * then by fewer p95 tool calls, then by fewer p95 input tokens, then by name: a total
 * order, so the same sweep always gives the same board. Percentiles pool every run of the
 * arm across scenarios, read from the runs themselves (runs.jsonl); duplicate side effects
 * come from the cells' totals.
 */
export function leaderboard(cells: readonly SweepCell[], summaries: readonly CellSummary[]): LeaderboardRow[] {
  const arms = [...new Set(cells.map((cell) => cell.arm))];
  const rows = arms.map((arm) => {
    const mine = cells.filter((cell) => cell.arm === arm);
    const trials = mine.reduce((sum, cell) => sum + cell.trials, 0);
    const right = mine.reduce((sum, cell) => sum + (cell.impossible ? cell.escalated : cell.successes), 0);
    const pooled = (pick: (cell: SweepCell) => Float64Array): Float64Array => {
      const all = new Float64Array(trials);
      let at = 0;
      for (const cell of mine) {
        all.set(pick(cell), at);
        at += cell.trials;
      }
      return all;
    };
    return {
      arm,
      runs: trials,
      rightOutcome: wilson(right, trials),
      p95ToolCalls: describe(pooled((cell) => cell.toolCalls)).p95,
      p95InputTokens: describe(pooled((cell) => cell.inputTokens)).p95,
      duplicateSideEffects: summaries
        .filter((cell) => cell.arm === arm)
        .reduce((sum, cell) => sum + cell.duplicate_side_effects, 0),
    };
  });
  rows.sort(
    (a, b) =>
      b.rightOutcome.rate - a.rightOutcome.rate ||
      a.p95ToolCalls - b.p95ToolCalls ||
      a.p95InputTokens - b.p95InputTokens ||
      (a.arm < b.arm ? -1 : a.arm > b.arm ? 1 : 0),
  );
  return rows.map((row, i) => ({ rank: i + 1, ...row }));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');
const int = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** The leaderboard as a terminal table, in the style of the run tables. */
export function renderLeaderboard(rows: readonly LeaderboardRow[], options: { readonly color?: boolean } = {}): string {
  const table = new Table(
    tableFrame(
      ['#', 'arm', 'runs', 'success [95% CI]', 'tool calls\np95', 'input tokens\np95', 'duplicate\nside effects'],
      options.color !== false,
    ),
  );
  for (const row of rows) {
    const { rate, low, high } = row.rightOutcome;
    table.push([
      row.rank,
      row.arm,
      row.runs,
      `${pct(rate)} [${pct(low)}, ${pct(high)}]`,
      int(row.p95ToolCalls),
      thousands(row.p95InputTokens),
      row.duplicateSideEffects,
    ]);
  }
  return table.toString();
}
