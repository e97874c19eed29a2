import { ARM_PRESETS } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import type { PersonaParameter } from '../model/simulated/persona-priors.js';
import { withParameters } from '../model/simulated/persona-priors.js';
import type { Scenario } from '../scenarios/loader.js';
import { describe } from '../stats/descriptive.js';
import {
  addTally,
  type BehaviourTally,
  emptyTally,
  statisticsOfTally,
  tallyTrajectory,
} from '../behaviour/behaviour-statistics.js';
import { trajectoryOfMessages } from '../behaviour/trajectory-of-messages.js';
import type { BehaviourTargetName, Statistics } from './targets.js';

/** The arm a fit simulates: the agent without safeguards, as the user's production statistics describe it. */
export const BASELINE_ARM = ARM_PRESETS.get('none')!;

/** Run seeds `first`, `first + step`, ... (`count` of them) under one sweep seed. */
export interface SeedRange {
  readonly sweepSeed: number;
  readonly first: number;
  readonly step: number;
  readonly count: number;
}

/** One persona's runs of the baseline arm: the work a calibration worker does for one candidate. */
export interface BaselineTask {
  readonly parameters: Readonly<Record<PersonaParameter, number>>;
  readonly seeds: SeedRange;
  /** Tally the runs' behaviour from their transcripts (a fit with behaviour targets). @default false */
  readonly behaviour?: boolean;
}

/** What the runs showed, per run, in seed order: enough for the statistics of one candidate or of several pooled. */
export interface BaselineRuns {
  readonly toolCalls: Float64Array;
  readonly inputTokens: Float64Array;
  readonly successes: number;
  /** The runs' behaviour counts, tallied where they ran: the transcripts never leave the worker. */
  readonly behaviour?: BehaviourTally;
}

/** Runs the baseline arm of `scenario` with the task's persona on the task's seeds. */
export async function runBaseline(scenario: Scenario, task: BaselineTask): Promise<BaselineRuns> {
  // One persona object for every run of the candidate.
  const played: Scenario = { ...scenario, persona: withParameters(scenario.persona, task.parameters) };
  const { sweepSeed, first, step, count } = task.seeds;
  const toolCalls = new Float64Array(count);
  const inputTokens = new Float64Array(count);
  let successes = 0;
  const behaviour = task.behaviour === true ? emptyTally() : undefined;
  for (let i = 0; i < count; i++) {
    const seed = first + i * step;
    const { record, result } = await runOne({ sweepSeed, scenario: played, arm: BASELINE_ARM, seed });
    toolCalls[i] = record.tool_calls;
    inputTokens[i] = record.input_tokens;
    if (record.verdict === 'success') successes += 1;
    if (behaviour !== undefined) tallyTrajectory(behaviour, trajectoryOfMessages(`${seed}`, result.messages));
  }
  return { toolCalls, inputTokens, successes, ...(behaviour === undefined ? {} : { behaviour }) };
}

/** The behaviour targets of a tally (NaN where it counted nothing), as BEHAVIOUR_TARGETS names them. */
export function behaviourTargetsOf(tally: BehaviourTally | undefined): Record<BehaviourTargetName, number> {
  const statistics = tally === undefined ? undefined : statisticsOfTally(tally);
  const value = (share: number | null | undefined) => share ?? Number.NaN;
  return {
    identical_consecutive: value(statistics?.identical_consecutive),
    after_good_identical: value(statistics?.after.good.identical),
    after_permanent_identical: value(statistics?.after.permanent.identical),
    after_transient_identical: value(statistics?.after.transient.identical),
    long_run_repeat_share: value(statistics?.long_runs.repeat_share),
  };
}

/**
 * The statistics of some runs: the outcome figures as summary.json computes them (R type 7
 * quantiles, 2 decimals), and the behaviour figures of their tallies (NaN without them).
 */
export function statisticsOf(runs: readonly BaselineRuns[]): Statistics {
  const total = runs.reduce((sum, part) => sum + part.toolCalls.length, 0);
  const calls = new Float64Array(total);
  const tokens = new Float64Array(total);
  let offset = 0;
  let successes = 0;
  const read = runs.some((part) => part.behaviour !== undefined);
  const behaviour = emptyTally();
  for (const part of runs) {
    calls.set(part.toolCalls, offset);
    tokens.set(part.inputTokens, offset);
    offset += part.toolCalls.length;
    successes += part.successes;
    if (part.behaviour !== undefined) addTally(behaviour, part.behaviour);
  }
  const callStats = describe(calls);
  return {
    median_calls: callStats.median,
    p95_calls: callStats.p95,
    success: total === 0 ? 0 : successes / total,
    median_input_tokens: describe(tokens).median,
    ...behaviourTargetsOf(read ? behaviour : undefined),
  };
}
