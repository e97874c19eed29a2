import { type InputProblem, UserInputError } from '../user-input-error.js';

/** The outcome figures a fit can target: what a user can read off their own agent's logs. */
export const OUTCOME_TARGETS = ['median_calls', 'p95_calls', 'success', 'median_input_tokens'] as const;

/**
 * Behaviour figures a fit can target (src/behaviour/behaviour-statistics.ts defines them):
 * how often the agent sends a call identical to the one before, re-sends the identical
 * call after a good result, a permanent error and a transient one, and how many of its
 * runs over 50 calls hold an immediate repeat pair. Shares from 0 to 1.
 */
export const BEHAVIOUR_TARGETS = [
  'identical_consecutive',
  'after_good_identical',
  'after_permanent_identical',
  'after_transient_identical',
  'long_run_repeat_share',
] as const;

/** Every statistic a fit can target; a fit targets those it is given and no other. */
export const TARGET_NAMES = [...OUTCOME_TARGETS, ...BEHAVIOUR_TARGETS] as const;
export type TargetName = (typeof TARGET_NAMES)[number];
export type BehaviourTargetName = (typeof BEHAVIOUR_TARGETS)[number];

/**
 * The statistics of a candidate's runs of the no-safeguard arm. A behaviour statistic is
 * NaN when its runs were not read for behaviour, or held nothing to count (no permanent
 * error, no run over 50 calls): no band holds NaN.
 */
export type Statistics = Readonly<Record<TargetName, number>>;

/** Targets given by the user: at least one of them. */
export type Targets = Readonly<Partial<Record<TargetName, number>>>;

/**
 * How far a statistic may be from its target, per target. Counts are compared as a ratio
 * (12 against 14 is as far as 120 against 140), so their tolerance is the largest ratio
 * allowed; success is a share, compared by difference.
 */
export type Tolerances = Readonly<Record<TargetName, number>>;

interface TargetSpec {
  readonly compare: 'ratio' | 'difference';
  /**
   * The default band: README's calibration bands for the outcome figures (median 10–14,
   * p95 60–120, success 55–73%, tokens ±25%). A behaviour share's band is a difference,
   * wide enough for the noise of a few hundred runs: ±3 points for identical consecutive
   * calls (a share of thousands of calls), ±5 after a good or transient result, ±8 after
   * a permanent error (fewer of them), ±15 for the long-run share (few runs are long).
   */
  readonly tolerance: number;
  readonly meaning: string;
}

export const TARGET_SPECS: Readonly<Record<TargetName, TargetSpec>> = Object.freeze({
  median_calls: { compare: 'ratio', tolerance: 1.2, meaning: 'median tool calls a run (calls the model requested)' },
  p95_calls: { compare: 'ratio', tolerance: 1.35, meaning: '95th percentile of tool calls a run' },
  success: { compare: 'difference', tolerance: 0.09, meaning: 'share of runs judged a success, 0 to 1' },
  median_input_tokens: { compare: 'ratio', tolerance: 1.25, meaning: 'median input tokens a run' },
  identical_consecutive: {
    compare: 'difference',
    tolerance: 0.03,
    meaning: 'share of calls identical (name and arguments) to the call just before, 0 to 1',
  },
  after_good_identical: {
    compare: 'difference',
    tolerance: 0.05,
    meaning: 'share of turns after a good result that re-send the identical call',
  },
  after_permanent_identical: {
    compare: 'difference',
    tolerance: 0.08,
    meaning: 'share of turns after a permanent error that re-send the identical call',
  },
  after_transient_identical: {
    compare: 'difference',
    tolerance: 0.05,
    meaning: 'share of turns after a transient error that re-send the identical call',
  },
  long_run_repeat_share: {
    compare: 'difference',
    tolerance: 0.15,
    meaning: 'share of runs over 50 calls holding an immediate repeat pair',
  },
});

/** Whether a fit must read its runs' transcripts: it targets a behaviour statistic. */
export function targetsBehaviour(targets: Targets): boolean {
  return BEHAVIOUR_TARGETS.some((name) => targets[name] !== undefined);
}

/** The statistics a fit reports: the outcome figures always, a behaviour statistic when it is a target. */
export function reportedTargets(targets: Targets): TargetName[] {
  return TARGET_NAMES.filter(
    (name) => (OUTCOME_TARGETS as readonly string[]).includes(name) || targets[name] !== undefined,
  );
}

export const DEFAULT_TOLERANCES: Tolerances = Object.freeze(
  Object.fromEntries(TARGET_NAMES.map((name) => [name, TARGET_SPECS[name].tolerance])) as Record<TargetName, number>,
);

/** The targets of the reference scenario's published no-safeguard baseline (50 runs). */
export const PUBLISHED_TARGETS: Targets = Object.freeze({
  median_calls: 12,
  p95_calls: 89,
  success: 0.64,
  median_input_tokens: 18_400,
});

/**
 * How far one statistic is from its target, in tolerances: 1 is the edge of its band.
 * A count of 0 is infinitely far from any target (no ratio reaches it).
 */
export function deviation(name: TargetName, value: number, target: number, tolerance: number): number {
  if (Number.isNaN(value)) return Number.POSITIVE_INFINITY;
  if (TARGET_SPECS[name].compare === 'difference') return Math.abs(value - target) / tolerance;
  if (value <= 0) return Number.POSITIVE_INFINITY;
  return Math.abs(Math.log(value / target)) / Math.log(tolerance);
}

/**
 * The distance of a candidate's statistics from the targets: the largest deviation, so a
 * distance of at most 1 means every targeted statistic is inside its band. The ABC
 * tolerance schedule walks this number down to 1.
 */
export function distance(
  statistics: Readonly<Partial<Record<TargetName, number>>>,
  targets: Targets,
  tolerances: Tolerances,
): number {
  let largest = 0;
  for (const name of TARGET_NAMES) {
    const target = targets[name];
    if (target === undefined) continue;
    largest = Math.max(largest, deviation(name, statistics[name] ?? Number.NaN, target, tolerances[name]));
  }
  return largest;
}

/** The band a statistic must fall in, e.g. `10–14.4`. */
export function band(name: TargetName, target: number, tolerance: number): readonly [number, number] {
  return TARGET_SPECS[name].compare === 'difference'
    ? [Math.max(0, target - tolerance), Math.min(1, target + tolerance)]
    : [target / tolerance, target * tolerance];
}

/**
 * `name=value` pairs of a flag, each name once, each value read by `read` (a number, or
 * what was expected instead); every problem reported, in the order of the pairs.
 */
function readPairs(
  flag: string,
  items: readonly string[],
  read: (name: TargetName, text: string) => number | string,
): { values: Partial<Record<TargetName, number>>; problems: InputProblem[] } {
  const values: Partial<Record<TargetName, number>> = {};
  const seen = new Set<string>();
  const problems: InputProblem[] = [];
  for (const item of items) {
    const equals = item.indexOf('=');
    if (equals === -1) {
      problems.push({ source: flag, field: item, expected: 'name=value, e.g. median_calls=12' });
      continue;
    }
    const name = item.slice(0, equals).trim();
    const text = item.slice(equals + 1).trim();
    if (!(TARGET_NAMES as readonly string[]).includes(name)) {
      problems.push({ source: flag, field: name, expected: `one of ${TARGET_NAMES.join(', ')}` });
    } else if (seen.has(name)) {
      problems.push({ source: flag, field: name, expected: 'each name once; it is given twice' });
    } else {
      seen.add(name);
      const value = read(name as TargetName, text);
      if (typeof value === 'number') values[name as TargetName] = value;
      else problems.push({ source: flag, field: name, expected: value });
    }
  }
  return { values, problems };
}

function number(text: string): number | undefined {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * `--target median_calls=12,p95_calls=89,success=0.64,median_input_tokens=18400`, as
 * commaList split it. Any subset of TARGET_NAMES; counts above 0, shares from 0 to 1.
 */
export function parseTargets(items: readonly string[]): Targets {
  const { values: targets, problems } = readPairs('--target', items, (name, text) => {
    const value = number(text);
    if (value === undefined) return `a number, got '${text}'`;
    if (name === 'success' && (value < 0 || value > 1))
      return `a share of successful runs from 0 to 1 (0.64 for 64%), got ${text}`;
    if (TARGET_SPECS[name].compare === 'difference' && (value < 0 || value > 1))
      return `a share from 0 to 1 (0.04 for 4%), got ${text}`;
    if (TARGET_SPECS[name].compare === 'ratio' && value <= 0) return `a number above 0 (the ${name}), got ${text}`;
    return value;
  });
  if (problems.length === 0 && Object.keys(targets).length === 0)
    problems.push({ source: '--target', field: '', expected: `at least one of ${TARGET_NAMES.join(', ')}` });
  const { median_calls: median, p95_calls: p95 } = targets;
  if (median !== undefined && p95 !== undefined && p95 < median)
    problems.push({
      source: '--target',
      field: 'p95_calls',
      expected: `at least median_calls (${median}), got ${p95}`,
    });
  if (problems.length > 0) throw new UserInputError(problems);
  return Object.freeze(targets);
}

/**
 * `--tolerance median_calls=1.2,success=0.09`: the band of each named target (the others
 * keep their defaults). A count's tolerance is a ratio above 1; a share's (success, the
 * behaviour statistics) a difference above 0 and at most 1.
 */
export function parseTolerances(items: readonly string[]): Tolerances {
  const { values, problems } = readPairs('--tolerance', items, (name, text) => {
    const value = number(text);
    if (value === undefined) return `a number, got '${text}'`;
    if (TARGET_SPECS[name].compare === 'ratio')
      return value > 1 ? value : `a ratio above 1 (1.2: within 20% either way), got ${text}`;
    return value > 0 && value <= 1
      ? value
      : `a difference above 0 and at most 1 (0.09: 9 points either way), got ${text}`;
  });
  if (problems.length > 0) throw new UserInputError(problems);
  return Object.freeze({ ...DEFAULT_TOLERANCES, ...values });
}
