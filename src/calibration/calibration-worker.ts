// The calibration pool's worker entry: piscina calls the default export with each candidate's task.
import { workerData } from 'piscina';
import { scenarioFromTexts, type ScenarioTexts } from '../scenarios/loader.js';
import { prepareScenarioTexts } from '../scenarios/tools-module.js';
import { type BaselineRuns, type BaselineTask, runBaseline } from './baseline-runs.js';

/** What the main thread hands every worker once, when the pool starts. */
export interface CalibrationPoolData {
  /** The scenario's texts as the main thread read them: workers never read the files. */
  readonly scenario: ScenarioTexts;
}

const texts = (workerData as CalibrationPoolData).scenario;
await prepareScenarioTexts(texts);
const scenario = scenarioFromTexts(texts);

export default function runCandidate(task: BaselineTask): Promise<BaselineRuns> {
  return runBaseline(scenario, task);
}
