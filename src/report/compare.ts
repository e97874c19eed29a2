import { stream, type StreamKey } from '../random/streams.js';
import { bootstrapDifferences, median, p95 } from '../stats/bootstrap.js';
import { fisherExact } from '../stats/fisher-exact.js';
import { newcombeDifference, type DifferenceInterval } from '../stats/newcombe.js';
import type { Robustness } from '../stats/robustness.js';
import { armRobustness } from './arm-effects.js';
import { ALPHA, type GatedMetric, type ResolvedCompareOptions } from './compare-options.js';
import type { SweepCell } from './read-sweep.js';

export {
  ALPHA,
  type CompareOptions,
  type CompareThresholds,
  DEFAULT_GATE,
  DEFAULT_SUCCESS_TOLERANCE,
  DEFAULT_THRESHOLDS,
  GATED_METRICS,
  type GatedMetric,
  type ResolvedCompareOptions,
  resolveCompareOptions,
  THRESHOLD_FLAGS,
} from './compare-options.js';

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
  /**
   * Without an ensemble (fewer than 3 members): Fisher's p < 0.05. With one: the pooled
   * interval across members excludes 0, so persona variation counts as uncertainty.
   */
  readonly significant: boolean;
  readonly basis: 'fisher' | 'ensemble';
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

/** A significant change in a figure, beyond its threshold. */
export interface Finding {
  readonly metric: GatedMetric;
  readonly direction: 'worse' | 'better';
  /** The figure is one the gate looks at. */
  readonly gated: boolean;
}

/** How B's change from A holds across the ensemble's members (success; tool calls and input tokens per run, as means). */
export interface RowRobustness {
  readonly success: Robustness | null;
  readonly toolCalls: Robustness | null;
  readonly inputTokens: Robustness | null;
}

/**
 * A row's or a comparison's change in one word: better somewhere and worse nowhere is
 * improved; both is mixed. With no change found, unchanged only when the success interval
 * lies within the tolerance; else inconclusive (the seeds cannot rule out a larger change).
 */
export type Verdict = 'improved' | 'regressed' | 'mixed' | 'unchanged' | 'inconclusive';

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
  readonly robustness: RowRobustness;
  /** Every significant change beyond its threshold, gated or not. */
  readonly findings: readonly Finding[];
  /** From all findings: improved, regressed, mixed (some better, some worse) or unchanged. */
  readonly verdict: Verdict;
  /** A gated figure got significantly worse beyond its threshold: the gate fails on this row. */
  readonly regression: boolean;
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
  /** Every row's findings together: improved, regressed, mixed or unchanged. */
  readonly verdict: Verdict;
  /** The two sides' runs cannot be matched member to member (different ensembles): each side counts as one model. */
  readonly oneModel: boolean;
}

/** What `compare` knows of the two sweeps beyond their cells. */
export interface CompareContext {
  /** The sweeps ran different persona ensembles (or one ran none): members do not correspond. @default false */
  readonly oneModel?: boolean;
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
  context: CompareContext = {},
): Comparison {
  const oneModel = context.oneModel === true;
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
    if (b !== undefined) rows.push(compareCell(a, b, options, oneModel));
  }
  return {
    rows,
    onlyInA: pickA.filter((cell) => !byKeyB.has(keyOf(cell))).map(cellKey),
    onlyInB: pickB.filter((cell) => !keysA.has(keyOf(cell))).map(cellKey),
    options,
    verdict: overallVerdict(rows),
    oneModel,
  };
}

/** The rows that fail the gate: a gated figure significantly worse beyond its threshold. */
export function regressions(comparison: Comparison): CompareRow[] {
  return comparison.rows.filter((row) => row.regression);
}

/** Better somewhere and worse nowhere is improved, the other way regressed, both mixed. */
export function verdictOf(findings: readonly Finding[]): Verdict {
  const better = findings.some((finding) => finding.direction === 'better');
  const worse = findings.some((finding) => finding.direction === 'worse');
  return better && worse ? 'mixed' : worse ? 'regressed' : better ? 'improved' : 'unchanged';
}

/** Every row's findings together; with none, inconclusive when any row is. */
function overallVerdict(rows: readonly CompareRow[]): Verdict {
  const verdict = verdictOf(rows.flatMap((row) => row.findings));
  return verdict === 'unchanged' && rows.some((row) => row.verdict === 'inconclusive') ? 'inconclusive' : verdict;
}

/**
 * A row with no finding is unchanged only if its success interval rules out a move beyond
 * the tolerance. Not significant is not the same as no change: -12 points on 100 seeds is
 * not significant, yet the seeds allow a drop of 25. A significant change the thresholds
 * forgive stays unchanged: the user said it does not count.
 */
function rowVerdict(findings: readonly Finding[], success: SuccessChange, tolerance: number): Verdict {
  const verdict = verdictOf(findings);
  if (verdict !== 'unchanged' || success.significant) return verdict;
  return success.low < -tolerance || success.high > tolerance ? 'inconclusive' : 'unchanged';
}

function cellKey(cell: SweepCell): CellKey {
  return { scenario: cell.scenario, arm: cell.arm };
}

function compareCell(a: SweepCell, b: SweepCell, options: ResolvedCompareOptions, oneModel: boolean): CompareRow {
  const { thresholds } = options;
  const impossible = a.impossible || b.impossible;
  const robust = (metric: 'right' | 'toolCalls' | 'inputTokens') =>
    roundRobustness(armRobustness([[a, b]], metric, { oneModel }));
  // An impossible scenario in only one of the sweeps changes what counts as right; the per-run columns follow each sweep's own.
  const robustness: RowRobustness = {
    success: robust('right'),
    toolCalls: robust('toolCalls'),
    inputTokens: robust('inputTokens'),
  };
  const success = successChange(
    rightOutcomes(a, impossible),
    a.trials,
    rightOutcomes(b, impossible),
    b.trials,
    robustness.success,
  );
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
  const gated = (metric: GatedMetric) => options.gate.includes(metric);
  if (success.significant && Math.abs(success.difference) > thresholds.successDrop) {
    findings.push({
      metric: 'success',
      direction: success.difference < 0 ? 'worse' : 'better',
      gated: gated('success'),
    });
  }
  const judge = (change: MetricChange, threshold: number, metric: GatedMetric) => {
    if (!change.significant) return;
    // From 0, any change is beyond any relative threshold.
    const beyond = change.relative === null ? change.b !== change.a : Math.abs(change.relative) > threshold;
    if (beyond) findings.push({ metric, direction: change.b > change.a ? 'worse' : 'better', gated: gated(metric) });
  };
  judge(toolCalls.p95, thresholds.p95CallsRise, 'p95_tool_calls');
  judge(inputTokens.median, thresholds.tokensRise, 'median_input_tokens');

  return {
    scenario: a.scenario,
    armA: a.arm,
    armB: b.arm,
    impossible,
    success: roundSuccess(success),
    toolCalls,
    inputTokens,
    robustness,
    findings,
    verdict: rowVerdict(findings, success, options.successTolerance),
    regression: findings.some((finding) => finding.gated && finding.direction === 'worse'),
  };
}

function rightOutcomes(cell: SweepCell, impossible: boolean): number {
  return cell.successes + (impossible ? cell.escalated : 0);
}

function successChange(
  successesA: number,
  trialsA: number,
  successesB: number,
  trialsB: number,
  robustness: Robustness | null,
): SuccessChange {
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
    ...(robustness !== null && robustness.label !== 'one-model'
      ? { significant: robustness.significant, basis: 'ensemble' as const }
      : { significant: p < ALPHA, basis: 'fisher' as const }),
  };
}

function roundRobustness(r: Robustness | undefined): Robustness | null {
  if (r === undefined) return null;
  const round = (x: number | null) => (x === null ? null : round4(x));
  return {
    ...r,
    pooled: round4(r.pooled),
    low: round4(r.low),
    high: round4(r.high),
    predictionLow: round(r.predictionLow),
    predictionHigh: round(r.predictionHigh),
    tau: round4(r.tau),
    heterogeneityP: Number(r.heterogeneityP.toPrecision(4)),
    rawMin: round4(r.rawMin),
    rawMax: round4(r.rawMax),
    shrunkenMin: round4(r.shrunkenMin),
    shrunkenMax: round4(r.shrunkenMax),
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
