import type { StoredSummary } from '../results/summary-schema.js';
import { baselineArm } from './arm-effects.js';
import { readSweep, type SweepRuns } from './read-sweep.js';
import { recommend, scenarioEffects, type Answer, type ScenarioEffect } from './recommendation.js';

/** What the run's terminal output concludes, read back from the saved results. */
export interface RunConclusions {
  /** The arm every difference is measured against. */
  readonly baseline: string;
  /** Each arm's difference from the baseline per scenario, with its robustness across models. */
  readonly effects: ReadonlyMap<string, ScenarioEffect>;
  /** The cross-scenario answer that ends the output. */
  readonly answer: Answer;
}

/**
 * Reads a finished sweep folder's runs and works out the differences between arms and
 * the answer: the same numbers the report and the Markdown summary state, from the same
 * files, so the terminal never says something the saved results do not.
 *
 * @example
 * const { answer } = await readRunConclusions('results/latest', summary);
 */
export async function readRunConclusions(dir: string, summary: StoredSummary): Promise<RunConclusions> {
  return conclusionsOf(await readSweep(dir), summary);
}

/** The conclusions of runs already read. */
export function conclusionsOf(runs: SweepRuns, summary: StoredSummary): RunConclusions {
  const baseline = baselineArm(summary.arms.map((arm) => arm.name)) ?? '';
  return { baseline, effects: scenarioEffects(runs, baseline), answer: recommend(runs, summary) };
}
