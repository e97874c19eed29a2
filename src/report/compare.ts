import { stream, type StreamKey } from '../random/streams.js';
import { bootstrapDifferences, median, p95 } from '../stats/bootstrap.js';
import { fisherExact } from '../stats/fisher-exact.js';
import { newcombeDifference, type DifferenceInterval } from '../stats/newcombe.js';
import { UserInputError } from '../user-input-error.js';
import type { SweepCell } from './read-sweep.js';

/** How much worse B may be before a significant change counts as a regression. */
export interface CompareThresholds {
  /** Drop in success rate, absolute (0.02 = 2 percentage points). @default 0.02 */
  readonly successDrop: number;
  /** Rise in p95 tool calls, relative (0.10 = 10%). @default 0.10 */
  readonly p95CallsRise: number;
  /** Rise in median input tokens, relative (0.10 = 10%). @default 0.10 */
  readonly tokensRise: number;
}

export interface CompareOptions {
  readonly thresholds?: Partial<CompareThresholds>;
  /** Compare this arm of sweep A ... @default armB, or every arm, each with the same arm of B */
  readonly armA?: string;
  /** ... with this arm of sweep B. @default armA */
  readonly armB?: string;
  /** Namespace of the bootstrap's random streams. @default 0 */
  readonly seed?: number;
  /** Bootstrap resamples per metric. @default 2000 */
  readonly resamples?: number;
}

export interface ResolvedCompareOptions {
  readonly thresholds: CompareThresholds;
  readonly armA: string | undefined;
  readonly armB: string | undefined;
  readonly seed: number;
  readonly resamples: number;
}

/** The thresholds when none are given: 2 points of success, +10% p95 tool calls, +10% median input tokens. */
export const DEFAULT_THRESHOLDS: CompareThresholds = Object.freeze({
  successDrop: 0.02,
  p95CallsRise: 0.1,
  tokensRise: 0.1,
});

/** Significance level of Fisher's test on success. */
export const ALPHA = 0.05;

/** The CLI flag of each threshold, so a bad value is reported where the user typed it. */
export const THRESHOLD_FLAGS: Readonly<Record<keyof CompareThresholds, string>> = {
  successDrop: '--success-drop',
  p95CallsRise: '--p95-calls-rise',
  tokensRise: '--tokens-rise',
};

/** Validates options and fills in defaults, once, into a frozen object. */
export function resolveCompareOptions(options: CompareOptions = {}): ResolvedCompareOptions {
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  for (const key of Object.keys(THRESHOLD_FLAGS) as (keyof CompareThresholds)[]) {
    const value = thresholds[key];
    const max = key === 'successDrop' ? 1 : Infinity;
    if (!Number.isFinite(value) || value < 0 || value >= max) {
      throw UserInputError.single(
        THRESHOLD_FLAGS[key],
        '',
        `${key === 'successDrop' ? 'a fraction in [0, 1), e.g. 0.02 for 2 points' : 'a fraction ≥ 0, e.g. 0.10 for 10%'}; got ${value}`,
      );
    }
  }
  const seed = options.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw UserInputError.single('--seed', '', `a whole number ≥ 0; got ${seed}`);
  const resamples = options.resamples ?? 2000;
  if (!Number.isSafeInteger(resamples) || resamples < 100)
    throw UserInputError.single('--resamples', '', `a whole number ≥ 100; got ${resamples}`);
  // Naming one arm compares that arm in both sweeps.
  const armA = options.armA ?? options.armB;
  const armB = options.armB ?? options.armA;
  return Object.freeze({ thresholds: Object.freeze(thresholds), armA, armB, seed, resamples });
}

/** The success rates of a cell in A and B, their difference (B − A) with Newcombe's 95% interval, and Fisher's p. */
export interface SuccessChange {
  readonly successesA: number;
  readonly trialsA: number;
  readonly successesB: number;
  readonly trialsB: number;
  readonly rateA: number;
  readonly rateB: number;
  readonly difference: number;
  readonly low: number;
  readonly high: number;
  /** Two-sided Fisher exact test. */
  readonly p: number;
  /** p < 0.05. */
  readonly significant: boolean;
}

/** A statistic of a metric in A and B, their difference (B − A) with a bootstrap 95% interval. */
export interface MetricChange {
  readonly a: number;
  readonly b: number;
  readonly difference: number;
  readonly low: number;
  readonly high: number;
  /** (B − A) / A; null when A is 0. */
  readonly relative: number | null;
  /** The interval excludes 0. */
  readonly significant: boolean;
}

/** The gated metrics. */
export type GatedMetric = 'success' | 'p95_tool_calls' | 'median_input_tokens';

/** A significant change in a gated metric, beyond its threshold. */
export interface Finding {
  readonly metric: GatedMetric;
  readonly direction: 'worse' | 'better';
}

/** One (scenario, arm) cell found in both sweeps. */
export interface CompareRow {
  readonly scenario: string;
  readonly armA: string;
  readonly armB: string;
  /** An escalation counts as success: the scenario cannot be completed (in A or B). */
  readonly impossible: boolean;
  readonly success: SuccessChange;
  readonly toolCalls: { readonly median: MetricChange; readonly p95: MetricChange };
  readonly inputTokens: { readonly median: MetricChange; readonly p95: MetricChange };
  readonly findings: readonly Finding[];
  /** 'regression' when any finding is worse, else 'improved' when any is better. */
  readonly mark: 'regression' | 'improved' | 'unchanged';
}

export interface CellKey {
  readonly scenario: string;
  readonly arm: string;
}

export interface Comparison {
  readonly rows: readonly CompareRow[];
  /** Cells of A with no counterpart in B, and the other way round. */
  readonly onlyInA: readonly CellKey[];
  readonly onlyInB: readonly CellKey[];
  readonly options: ResolvedCompareOptions;
}

/**
 * Compares the cells of sweep B with the matching cells of sweep A: success by Newcombe
 * interval and Fisher's exact test, the median and p95 of tool calls and input tokens by
 * seeded bootstrap. A change is significant when its test says so at 95%; a regression is
 * a significant change for the worse beyond its threshold. Pure and deterministic: the
 * bootstrap of each cell draws from its own stream, keyed by the cell.
 *
 * The tests treat A and B as independent samples. Two sweeps over the same seeds are
 * paired, and paired runs share fault draws (positively correlated), for which these
 * tests are conservative: they miss small changes rather than invent them.
 *
 * @example
 * const { rows } = compare(baseline.cells, candidate.cells, resolveCompareOptions({ armA: 'classify', armB: 'none' }));
 */
export function compare(
  cellsA: readonly SweepCell[],
  cellsB: readonly SweepCell[],
  options: ResolvedCompareOptions,
): Comparison {
  const { armA, armB } = options;
  const pickA = armA === undefined ? cellsA : cellsA.filter((cell) => cell.arm === armA);
  const pickB = armB === undefined ? cellsB : cellsB.filter((cell) => cell.arm === armB);
  // With named arms, cells pair up by scenario; otherwise by (scenario, arm).
  const keyOf = (cell: SweepCell) => (armA === undefined ? JSON.stringify([cell.scenario, cell.arm]) : cell.scenario);
  const byKeyB = new Map(pickB.map((cell) => [keyOf(cell), cell]));
  const keysA = new Set(pickA.map(keyOf));

  const rows: CompareRow[] = [];
  for (const a of pickA) {
    const b = byKeyB.get(keyOf(a));
    if (b !== undefined) rows.push(compareCell(a, b, options));
  }
  return {
    rows,
    onlyInA: pickA.filter((cell) => !byKeyB.has(keyOf(cell))).map(cellKey),
    onlyInB: pickB.filter((cell) => !keysA.has(keyOf(cell))).map(cellKey),
    options,
  };
}

/** The rows with a regression. */
export function regressions(comparison: Comparison): CompareRow[] {
  return comparison.rows.filter((row) => row.mark === 'regression');
}

function cellKey(cell: SweepCell): CellKey {
  return { scenario: cell.scenario, arm: cell.arm };
}

function compareCell(a: SweepCell, b: SweepCell, options: ResolvedCompareOptions): CompareRow {
  const { thresholds } = options;
  const impossible = a.impossible || b.impossible;
  const success = successChange(rightOutcomes(a, impossible), a.trials, rightOutcomes(b, impossible), b.trials);
  const key: StreamKey = { sweepSeed: options.seed, scenario: a.scenario, runSeed: 0 };
  const bootstrap = (metric: string, valuesA: Float64Array, valuesB: Float64Array) => {
    // One stream per (cell, metric): adding a metric never shifts another's intervals.
    const rng = stream(key, `compare:${a.arm}:${b.arm}:${metric}`, 0);
    const [byMedian, byP95] = bootstrapDifferences(valuesA, valuesB, [median, p95], {
      resamples: options.resamples,
      rng,
    });
    const sortedA = Float64Array.from(valuesA).sort();
    const sortedB = Float64Array.from(valuesB).sort();
    return {
      median: metricChange(median(sortedA), median(sortedB), byMedian as DifferenceInterval),
      p95: metricChange(p95(sortedA), p95(sortedB), byP95 as DifferenceInterval),
    };
  };
  const toolCalls = bootstrap('tool_calls', a.toolCalls, b.toolCalls);
  const inputTokens = bootstrap('input_tokens', a.inputTokens, b.inputTokens);

  const findings: Finding[] = [];
  if (success.significant && Math.abs(success.difference) > thresholds.successDrop) {
    findings.push({ metric: 'success', direction: success.difference < 0 ? 'worse' : 'better' });
  }
  const gate = (change: MetricChange, threshold: number, metric: GatedMetric) => {
    if (!change.significant) return;
    // From 0, any change is beyond any relative threshold.
    const beyond = change.relative === null ? change.b !== change.a : Math.abs(change.relative) > threshold;
    if (beyond) findings.push({ metric, direction: change.b > change.a ? 'worse' : 'better' });
  };
  gate(toolCalls.p95, thresholds.p95CallsRise, 'p95_tool_calls');
  gate(inputTokens.median, thresholds.tokensRise, 'median_input_tokens');
  const mark = findings.some((f) => f.direction === 'worse')
    ? 'regression'
    : findings.length > 0
      ? 'improved'
      : 'unchanged';

  return {
    scenario: a.scenario,
    armA: a.arm,
    armB: b.arm,
    impossible,
    success: roundSuccess(success),
    toolCalls,
    inputTokens,
    findings,
    mark,
  };
}

function rightOutcomes(cell: SweepCell, impossible: boolean): number {
  return cell.successes + (impossible ? cell.escalated : 0);
}

function successChange(successesA: number, trialsA: number, successesB: number, trialsB: number): SuccessChange {
  const interval = newcombeDifference(
    { successes: successesA, trials: trialsA },
    { successes: successesB, trials: trialsB },
  );
  const p = fisherExact([
    [successesA, trialsA - successesA],
    [successesB, trialsB - successesB],
  ]);
  return {
    successesA,
    trialsA,
    successesB,
    trialsB,
    rateA: successesA / trialsA,
    rateB: successesB / trialsB,
    difference: interval.estimate,
    low: interval.low,
    high: interval.high,
    p,
    significant: p < ALPHA,
  };
}

function metricChange(a: number, b: number, interval: DifferenceInterval): MetricChange {
  return {
    a: round2(a),
    b: round2(b),
    difference: round2(interval.estimate),
    low: round2(interval.low),
    high: round2(interval.high),
    relative: a === 0 ? null : round4((b - a) / a),
    significant: interval.low > 0 || interval.high < 0,
  };
}

function roundSuccess(change: SuccessChange): SuccessChange {
  return { ...change, rateA: round4(change.rateA), rateB: round4(change.rateB), p: Number(change.p.toPrecision(4)) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
