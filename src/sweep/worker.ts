// The pool's worker entry: piscina calls the default export with each ChunkTask.
import { workerData } from 'piscina';
import { type Scenario, type ScenarioTexts, scenarioFromTexts } from '../scenarios/loader.js';
import { prepareScenarioTexts } from '../scenarios/tools-module.js';
import type { Persona } from '../scenarios/persona-schema.js';
import { type ChunkResult, type ChunkTask, runChunk } from './chunk-runner.js';
import { ensembleCast } from './ensemble-cast.js';
import { crossingError } from './worker-errors.js';
import { trapProcessExit, UserCodeExited, userExitMessage } from '../user-module/process-exit-trap.js';
import { whereUserCodeRuns } from './run-in-flight.js';

/** What the main thread hands every worker once, when the pool starts. */
export interface PoolData {
  /** Each scenario's texts, in the sweep's scenario order, as the main thread read them before the first run. */
  readonly scenarios: readonly ScenarioTexts[];
  /** The ensemble's members, as the main thread read and checked them; absent without an ensemble. */
  readonly members?: readonly Persona[];
}

const { scenarios, members } = workerData as PoolData;
const built = new Map<number, { scenario: Scenario; cast: readonly Scenario[] | undefined }>();

/**
 * Built from the texts the first time this thread needs it: scenario files are not read
 * here, and a tools module is imported as the main thread read it.
 */
async function scenarioAt(index: number): Promise<{ scenario: Scenario; cast: readonly Scenario[] | undefined }> {
  let entry = built.get(index);
  if (entry === undefined) {
    const texts = scenarios[index];
    if (texts === undefined) throw new RangeError(`scenario ${index} is outside the sweep`);
    await prepareScenarioTexts(texts);
    const scenario = scenarioFromTexts(texts);
    entry = { scenario, cast: ensembleCast(scenario, texts, members) };
    built.set(index, entry);
  }
  return entry;
}

/**
 * In a worker, process.exit would end only this thread, and the pool would report a
 * worker that vanished. The trap throws instead, so the user's code stops where it
 * called it, and the first call is kept: however the run handles the throw, the chunk
 * then fails with it, and the main thread stops the sweep with exit 6.
 */
let userExit: UserCodeExited | undefined;
trapProcessExit((code) => {
  userExit ??= new UserCodeExited(userExitMessage(code, whereUserCodeRuns()));
  throw userExit;
});

export default async function runPooledChunk(task: ChunkTask): Promise<ChunkResult> {
  let result: ChunkResult;
  try {
    const { scenario, cast } = await scenarioAt(task.chunk.scenarioIndex);
    result = await runChunk(task, cast === undefined ? { scenario } : { scenario, cast });
  } catch (error) {
    throw crossingError(userExit ?? error);
  }
  if (userExit !== undefined) throw crossingError(userExit);
  return result;
}
