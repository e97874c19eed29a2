import type { SweepCell, SweepRuns } from '../read-sweep.js';
import { countEdges, histogram, logEdges, sortedCopy, survival, type Bin } from './histogram.js';
import { quantileInterval, type QuantileInterval } from './quantile-interval.js';

/** What the charts show of one metric of one cell: bins and tail, never the runs. */
export interface MetricDistribution {
  readonly bins: readonly Bin[];
  /** Share of runs at or above each bin edge. */
  readonly survival: ReadonlyArray<{ readonly at: number; readonly share: number }>;
  /** 95% interval of the p95 (order statistics). */
  readonly p95Interval: QuantileInterval;
}

export interface CellDistribution {
  readonly arm: string;
  readonly runs: number;
  readonly toolCalls: MetricDistribution;
  readonly inputTokens: MetricDistribution;
}

/** A scenario's cells on shared bin edges, so arms line up on one axis. */
export interface ScenarioDistributions {
  readonly scenario: string;
  readonly cells: readonly CellDistribution[];
}

function describeMetric(sorted: Float64Array, edges: readonly number[], whole: boolean): MetricDistribution {
  // The tail at each bin's lower end (for counts: one above the previous edge), and at the largest value.
  const points = whole ? [0, ...edges.map((edge) => edge + 1)] : edges;
  const tail = survival(sorted, points);
  const max = sorted[sorted.length - 1];
  if (max !== undefined && (tail.at(-1)?.at ?? -Infinity) < max) tail.push(...survival(sorted, [max]));
  return { bins: histogram(sorted, edges, { whole }), survival: tail, p95Interval: quantileInterval(sorted, 0.95) };
}

function extent(columns: readonly Float64Array[]): { min: number; max: number } {
  let min = Infinity;
  let max = 0;
  for (const sorted of columns) {
    if (sorted.length === 0) continue;
    min = Math.min(min, sorted[0]!);
    max = Math.max(max, sorted[sorted.length - 1]!);
  }
  return { min: Number.isFinite(min) ? min : 0, max };
}

/**
 * Cuts every cell of a sweep into histogram bins, per scenario on shared edges: whole
 * counts for tool calls, log-spaced for tokens. A 100,000-run sweep becomes a few hundred
 * numbers.
 */
export function distributions(runs: SweepRuns): ScenarioDistributions[] {
  const byScenario = new Map<string, SweepCell[]>();
  for (const cell of runs.cells) byScenario.set(cell.scenario, [...(byScenario.get(cell.scenario) ?? []), cell]);
  return [...byScenario].map(([scenario, cells]) => {
    const calls = cells.map((cell) => sortedCopy(cell.toolCalls));
    const tokens = cells.map((cell) => sortedCopy(cell.inputTokens));
    const callEdges = countEdges(extent(calls).max);
    const tokenExtent = extent(tokens);
    const tokenEdges = logEdges(tokenExtent.min, tokenExtent.max);
    return {
      scenario,
      cells: cells.map((cell, index) => ({
        arm: cell.arm,
        runs: cell.trials,
        toolCalls: describeMetric(calls[index]!, callEdges, true),
        inputTokens: describeMetric(tokens[index]!, tokenEdges, false),
      })),
    };
  });
}
