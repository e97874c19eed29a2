import { UserInputError } from '../user-input-error.js';

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
  /** The figures whose significant regression fails the gate. @default ['success'] */
  readonly gate?: readonly GatedMetric[];
  /**
   * How far the success rate may move, either way, for a cell with no significant change to
   * read "unchanged": its interval must lie inside ±this (absolute, 0.05 = 5 points); one
   * reaching further is "inconclusive", the seeds too few to tell. @default 0.05
   */
  readonly successTolerance?: number;
}

export interface ResolvedCompareOptions {
  readonly thresholds: CompareThresholds;
  readonly gate: readonly GatedMetric[];
  readonly armA: string | undefined;
  readonly armB: string | undefined;
  readonly seed: number;
  readonly resamples: number;
  readonly successTolerance: number;
}

/** The success tolerance when none is given: a cell reads "unchanged" when its interval lies within ±5 points. */
export const DEFAULT_SUCCESS_TOLERANCE = 0.05;

/** The thresholds when none are given: 2 points of success, +10% p95 tool calls, +10% median input tokens. */
export const DEFAULT_THRESHOLDS: CompareThresholds = Object.freeze({
  successDrop: 0.02,
  p95CallsRise: 0.1,
  tokensRise: 0.1,
});

/** The figures a comparison judges, in the order it shows them. */
export const GATED_METRICS = ['success', 'p95_tool_calls', 'median_input_tokens'] as const;

/** What gates when nothing is said: success alone, so a safeguard that buys success with tool calls is not a regression. */
export const DEFAULT_GATE: readonly GatedMetric[] = Object.freeze(['success'] as const);

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
  const successTolerance = options.successTolerance ?? DEFAULT_SUCCESS_TOLERANCE;
  if (!Number.isFinite(successTolerance) || successTolerance < 0 || successTolerance >= 1)
    throw UserInputError.single('--tolerance', '', `points in [0, 100), e.g. 5; got ${successTolerance * 100}`);
  const gate = options.gate ?? DEFAULT_GATE;
  const unknown = gate.filter((metric) => !(GATED_METRICS as readonly string[]).includes(metric));
  if (gate.length === 0 || unknown.length > 0)
    throw UserInputError.single(
      '--gate',
      '',
      `one or more of ${GATED_METRICS.join(', ')}, comma-separated; got '${gate.join(',')}'`,
    );
  // Naming one arm compares that arm in both sweeps.
  const armA = options.armA ?? options.armB;
  const armB = options.armB ?? options.armA;
  return Object.freeze({
    thresholds: Object.freeze(thresholds),
    gate: Object.freeze(GATED_METRICS.filter((metric) => gate.includes(metric))),
    armA,
    armB,
    seed,
    resamples,
    successTolerance,
  });
}

/** The figures that can gate. */
export type GatedMetric = (typeof GATED_METRICS)[number];
