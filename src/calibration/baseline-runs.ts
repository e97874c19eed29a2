import { ARM_PRESETS } from '../bench/arms.js';
import { runOne } from '../bench/run-one.js';
import type { PersonaParameter } from '../model/simulated/persona-priors.js';
import { withParameters } from '../model/simulated/persona-priors.js';
import type { Scenario } from '../scenarios/loader.js';
import { describe } from '../stats/descriptive.js';
import type { Statistics } from './targets.js';

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
}

/** What the runs showed, per run, in seed order: enough for the statistics of one candidate or of several pooled. */
export interface BaselineRuns {
  readonly toolCalls: Float64Array;
  readonly inputTokens: Float64Array;
  readonly successes: number;
}

/** Runs the baseline arm of `scenario` with the task's persona on the task's seeds. */
export async function runBaseline(scenario: Scenario, task: BaselineTask): Promise<BaselineRuns> {
  // One persona object for every run of the candidate.
  const played: Scenario = { ...scenario, persona: withParameters(scenario.persona, task.parameters) };
  const { sweepSeed, first, step, count } = task.seeds;
  const toolCalls = new Float64Array(count);
  const inputTokens = new Float64Array(count);
  let successes = 0;
  for (let i = 0; i < count; i++) {
    const { record } = await runOne({ sweepSeed, scenario: played, arm: BASELINE_ARM, seed: first + i * step });
    toolCalls[i] = record.tool_calls;
    inputTokens[i] = record.input_tokens;
    if (record.verdict === 'success') successes += 1;
  }
  return { toolCalls, inputTokens, successes };
}

/** The four statistics of some runs, as summary.json computes them (R type 7 quantiles, 2 decimals). */
export function statisticsOf(runs: readonly BaselineRuns[]): Statistics {
  const total = runs.reduce((sum, part) => sum + part.toolCalls.length, 0);
  const calls = new Float64Array(total);
  const tokens = new Float64Array(total);
  let offset = 0;
  let successes = 0;
  for (const part of runs) {
    calls.set(part.toolCalls, offset);
    tokens.set(part.inputTokens, offset);
    offset += part.toolCalls.length;
    successes += part.successes;
  }
  const callStats = describe(calls);
  return {
    median_calls: callStats.median,
    p95_calls: callStats.p95,
    success: total === 0 ? 0 : successes / total,
    median_input_tokens: describe(tokens).median,
  };
}
