// The pool's worker entry: piscina calls the default export with each ChunkTask.
import { workerData } from 'piscina';
import { type Scenario, type ScenarioTexts, scenarioFromTexts } from '../scenarios/loader.js';
import { type ChunkResult, type ChunkTask, runChunk } from './chunk-runner.js';

/** What the main thread hands every worker once, when the pool starts. */
export interface PoolData {
  /** Each scenario's texts, in the sweep's scenario order, as the main thread read them before the first run. */
  readonly scenarios: readonly ScenarioTexts[];
}

const { scenarios } = workerData as PoolData;
const built = new Map<number, Scenario>();

/** Built from the texts the first time this thread needs it: files are not read here. */
function scenarioAt(index: number): Scenario {
  let scenario = built.get(index);
  if (scenario === undefined) {
    const texts = scenarios[index];
    if (texts === undefined) throw new RangeError(`scenario ${index} is outside the sweep`);
    scenario = scenarioFromTexts(texts);
    built.set(index, scenario);
  }
  return scenario;
}

export default function runPooledChunk(task: ChunkTask): Promise<ChunkResult> {
  return runChunk(task, { scenario: scenarioAt(task.chunk.scenarioIndex) });
}
