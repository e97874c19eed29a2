import type { Scenario } from '../scenarios/loader.js';
import { memberFor } from './ensemble-cast.js';
import { PACKED_WIDTH, packRun } from './packed-metrics.js';
import { type ModelSource, portableModel } from '../run/model-source.js';
import { runOne } from '../arms/run-one.js';
import { runStarted } from './run-in-flight.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { csvRows } from '../results/run-csv.js';
import type { Chunk, SweepDefinition } from './sweep-plan.js';
import { importArmGuards } from '../arms/user-guards.js';

export interface ChunkTask {
  readonly definition: SweepDefinition;
  readonly chunk: Chunk;
}

/** What a chunk runs with besides its task: built once per thread, never sent with each chunk. */
export interface ChunkContext {
  /** The chunk's scenario, already loaded. */
  readonly scenario: Scenario;
  /** With an ensemble, the scenario as each member plays it (see ensembleCast); absent otherwise. */
  readonly cast?: readonly Scenario[];
  /** The sweep's model source, in the thread that made it; a worker rebuilds it from the definition's `model`. */
  readonly model?: ModelSource;
}

/** A finished chunk, ready to append: output lines and the numbers summaries need. */
export interface ChunkResult {
  readonly index: number;
  readonly runs: number;
  readonly jsonl: string;
  readonly csv: string;
  readonly packed: Float64Array;
}

/**
 * Runs one chunk. The same function runs inline and in pool workers, so a sweep's bytes
 * cannot depend on where its chunks ran.
 */
export async function runChunk({ definition, chunk }: ChunkTask, context: ChunkContext): Promise<ChunkResult> {
  const source = definition.scenarios[chunk.scenarioIndex];
  const arm = definition.arms[chunk.armIndex];
  if (source === undefined || arm === undefined) throw new RangeError(`chunk ${chunk.index} is outside the sweep`);
  // User guard modules are imported once per thread here, so building guards per run stays synchronous.
  await importArmGuards([arm]);
  const { scenario, cast } = context;
  const model = context.model ?? portableModel(definition.model);
  const runs = chunk.seedTo - chunk.seedFrom;
  const records: RunRecord[] = [];
  const packed = new Float64Array(runs * PACKED_WIDTH);
  for (let seed = chunk.seedFrom; seed < chunk.seedTo; seed++) {
    const member = cast === undefined ? undefined : memberFor(seed, definition.seeds.base, cast.length);
    const ended = runStarted({ scenario: scenario.id, arm: arm.name, seed });
    const { record } = await runOne({
      sweepSeed: definition.sweepSeed,
      scenario: member === undefined ? scenario : cast![member]!,
      arm,
      seed,
      model,
      stream: definition.stream === true,
      promptCache: definition.promptCache === false ? false : definition.batch === true ? '1h' : true,
      member,
      cassette: definition.cassette,
    }).finally(ended);
    packRun(record, packed, records.length);
    records.push(record);
  }
  let jsonl = '';
  for (const record of records) jsonl += `${JSON.stringify(record)}\n`;
  return { index: chunk.index, runs, jsonl, csv: csvRows(records), packed };
}
