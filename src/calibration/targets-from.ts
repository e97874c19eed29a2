import { measureBehaviour } from '../behaviour/measure-behaviour.js';
import { sourceKind } from '../behaviour/trajectory-source.js';
import { openFinishedSweep, readRuns } from '../results/results-reader.js';
import { loadScenario, type Scenario } from '../scenarios/loader.js';
import { describe } from '../stats/descriptive.js';
import { didYouMean } from '../did-you-mean.js';
import { UserInputError } from '../user-input-error.js';
import { BASELINE_ARM, behaviourTargetsOf } from './baseline-runs.js';
import { BEHAVIOUR_TARGETS, type TargetName, type Targets } from './targets.js';

/** Targets read off a source's runs, and those it could not give, each with why. */
export interface SourcedTargets {
  readonly targets: Targets;
  readonly missing: ReadonlyArray<{ readonly name: TargetName; readonly why: string }>;
  /** Runs the targets were computed from. */
  readonly runs: number;
  /** What the runs are: `arm none of <scenario> in <folder>`, or the file. */
  readonly described: string;
}

/**
 * Least counts behind a behaviour target taken from a source: a share of fewer turns or
 * long runs is too noisy to fit to, so it is left out and said so.
 */
export const MIN_TURNS = 20;
export const MIN_LONG_RUNS = 5;

const share = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * The calibration targets of a source's no-safeguard runs: from a results folder, the runs
 * of its arm `none`, or of its one agent arm (`serve`, `run --agent`), or of `fromArm`, on
 * `scenario` (outcome figures from runs.jsonl, behaviour from the runs
 * run again or their traces); from a trajectory or OTLP file, all its runs (calls a run
 * and behaviour; a file records no verdict and no tokens). Shares are rounded to 4
 * decimals, so the `--target` line printed for the fit gives the same fit.
 */
export async function targetsFrom(
  path: string,
  scenario: string,
  onProgress?: (done: number, total: number) => void,
  fromArm?: string,
): Promise<SourcedTargets> {
  const targets: Partial<Record<TargetName, number>> = {};
  const missing: Array<{ name: TargetName; why: string }> = [];
  const kind = sourceKind(path);
  const calls: number[] = [];
  let described: string;
  let runs: number;
  if (kind === 'results') {
    const sweep = openFinishedSweep(path);
    const arm = sourceArm(
      sweep.summary.arms.map((stored) => stored.name),
      path,
      fromArm,
    );
    const held = sweep.summary.scenarios.map((stored) => stored.id);
    // A sweep of the same task played by a persona of its own (fetch-transform-write-diligent) describes that agent on this task.
    const [only] = held;
    const found = held.includes(scenario)
      ? scenario
      : held.length === 1 && sameTask(only!, scenario)
        ? only!
        : undefined;
    if (found === undefined)
      throw UserInputError.single(
        '--from',
        '',
        `a sweep of scenario ${scenario} (or of the same task under another persona); ${path} holds ${held.join(', ')}`,
      );
    scenario = found;
    const tokens: number[] = [];
    let successes = 0;
    await readRuns(sweep, (run) => {
      if (run.arm !== arm || run.scenario !== scenario) return;
      calls.push(run.tool_calls);
      tokens.push(run.input_tokens);
      if (run.verdict === 'success') successes += 1;
    });
    runs = calls.length;
    described = `arm ${arm} of ${scenario} in ${path} (${runs} runs)`;
    targets.success = share(successes / runs);
    if (tokens.some((n) => n > 0)) targets.median_input_tokens = describe(tokens).median;
    else missing.push({ name: 'median_input_tokens', why: 'the runs record no input tokens' });
    try {
      const measured = await measureBehaviour(path, {
        filter: { arm, scenario },
        by: 'none',
        ...(onProgress === undefined ? {} : { onProgress }),
      });
      if (measured.source.note !== undefined)
        for (const name of BEHAVIOUR_TARGETS)
          missing.push({ name, why: `behaviour needs every run's calls; ${measured.source.note}` });
      else addBehaviour(targets, missing, measured.groups[0]?.tally);
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      for (const name of BEHAVIOUR_TARGETS) missing.push({ name, why: error.message });
    }
  } else {
    const measured = await measureBehaviour(path, {
      by: 'none',
      onRun: ({ trajectory }) => {
        let n = 0;
        for (const turn of trajectory.turns) if ('calls' in turn) n += turn.calls.length;
        calls.push(n);
      },
    });
    runs = calls.length;
    described = `${path} (${runs} runs)`;
    const what = kind === 'otlp' ? 'an OTLP trace file' : 'a trajectory file';
    missing.push({ name: 'success', why: `${what} records no verdict on the world` });
    missing.push({ name: 'median_input_tokens', why: `${what} records no token counts` });
    addBehaviour(targets, missing, measured.groups[0]?.tally);
  }
  if (runs === 0) throw UserInputError.single('--from', '', `runs to compute targets from; ${path} holds none`);
  const callStats = describe(calls);
  return {
    targets: Object.freeze({ median_calls: callStats.median, p95_calls: callStats.p95, ...targets }),
    missing,
    runs,
    described,
  };
}

function addBehaviour(
  targets: Partial<Record<TargetName, number>>,
  missing: Array<{ name: TargetName; why: string }>,
  tally: Parameters<typeof behaviourTargetsOf>[0],
): void {
  const values = behaviourTargetsOf(tally);
  const enough: Record<(typeof BEHAVIOUR_TARGETS)[number], [number, number, string]> = {
    identical_consecutive: [tally?.calls ?? 0, 1, 'tool calls'],
    after_good_identical: [tally?.after.good.n ?? 0, MIN_TURNS, 'turns after a good result'],
    after_permanent_identical: [tally?.after.permanent.n ?? 0, MIN_TURNS, 'turns after a permanent error'],
    after_transient_identical: [tally?.after.transient.n ?? 0, MIN_TURNS, 'turns after a transient error'],
    long_run_repeat_share: [tally?.long_runs ?? 0, MIN_LONG_RUNS, 'runs over 50 calls'],
  };
  for (const name of BEHAVIOUR_TARGETS) {
    const [have, need, what] = enough[name];
    if (have >= need && !Number.isNaN(values[name])) targets[name] = share(values[name]);
    else missing.push({ name, why: `${have} ${what}; at least ${need} are needed` });
  }
}

/** The parts of a scenario that make its task: everything but its name, its words about itself and its persona. */
function taskOf(scenario: Scenario): string {
  const { id: _id, title: _title, description: _description, persona: _persona, hash: _hash, ...task } = scenario;
  return JSON.stringify(task);
}

/** Whether two bundled scenarios are the same task, differing only in who plays it; false when either does not load. */
function sameTask(a: string, b: string): boolean {
  try {
    return taskOf(loadScenario(a)) === taskOf(loadScenario(b));
  } catch {
    return false;
  }
}

/**
 * The arm of a results folder whose runs describe the agent without our safeguards: the one
 * named, else `none`, else the folder's only arm when it is an agent's (a served sweep, or
 * `run --agent` alone): that agent's loop is all it ran.
 */
function sourceArm(arms: readonly string[], path: string, named: string | undefined): string {
  if (named !== undefined) {
    if (arms.includes(named)) return named;
    throw UserInputError.single(
      '--from-arm',
      named,
      `an arm of ${path} (${arms.join(', ')})${didYouMean(named, arms)}`,
    );
  }
  if (arms.includes(BASELINE_ARM.name)) return BASELINE_ARM.name;
  const [only] = arms;
  if (arms.length === 1 && only!.startsWith('agent:')) return only!;
  throw UserInputError.single(
    '--from',
    '',
    `a sweep with arm ${BASELINE_ARM.name} (the agent without safeguards, which a fit describes), or one agent arm; ${path} has ${arms.join(', ')} (name one with --from-arm)`,
  );
}
