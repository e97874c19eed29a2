// The calibration pool's worker entry: piscina calls the default export with each candidate's task.
import { workerData } from 'piscina';
import { scenarioFromTexts, type ScenarioTexts } from '../scenarios/loader.js';
import { type BaselineRuns, type BaselineTask, runBaseline } from './baseline-runs.js';

/** What the main thread hands every worker once, when the pool starts. */
export interface CalibrationPoolData {
  /** The scenario's texts as the main thread read them: workers never read the files. */
  readonly scenario: ScenarioTexts;
}

const scenario = scenarioFromTexts((workerData as CalibrationPoolData).scenario);

export default function runCandidate(task: BaselineTask): Promise<BaselineRuns> {
  return runBaseline(scenario, task);
}
