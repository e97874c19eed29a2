import { SpendLimitReached } from '../model/spend-limit.js';
import { availableParallelism } from 'node:os';
import { claimResultsFolder, sweepIntent, type ResultsFolder } from '../results/results-folder.js';
import { readInterruptedRuns } from '../results/results-reader.js';
import type { PersonaEnsemble } from '../scenarios/persona-ensemble.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from '../arms/arms.js';
import { CellAccumulator } from './cell-accumulator.js';
import { runChunk, type ChunkContext, type ChunkResult } from './chunk-runner.js';
import { runPooled } from './pooled-chunks.js';
import { sweepTraces } from './sweep-traces.js';
import { datasetTasks, isImpossible, storedEnsemble, sweepSummary, type SweepSummary } from './sweep-summary.js';
import { ensembleCast } from './ensemble-cast.js';
import { runInOrder } from './in-order-runner.js';
import type { ScenarioSource } from './scenario-source.js';
import { PACKED_WIDTH, packRun } from './packed-metrics.js';
import { checkSameSweep, type SweepIdentity } from './sweep-progress.js';
import { recordedArms, toolsModuleFiles } from '../arms/recorded-arms.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { modelLabel } from '../run/loop-run.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { checkGuardToolNames } from '../arms/guard-tool-names.js';
import { ArmCouldNotRun, ArmHealth, type BrokenArm } from './arm-health.js';
import { checkSeeds, planSweep, type Shard, shardBounds, type SweepDefinition } from './sweep-plan.js';

export interface SweepOptions {
  /**
   * Loaded scenarios, with the files and texts they came from (workers build them from the
   * texts) and, in `ref`, how the command line named them (an id or a path as given), for
   * the traces' replay commands (default: the scenario's id).
   */
  readonly scenarios: ReadonlyArray<ScenarioSource & { readonly ref?: string }>;
  readonly arms: readonly Arm[];
  /** The arms file the custom arms came from, as given, and their names: traces of those arms replay with it. */
  readonly armsFile?: { readonly path: string; readonly arms: ReadonlySet<string> };
  /** Runs per (scenario, arm) cell. */
  readonly seeds: number;
  /** The first run seed; runs use baseSeed, baseSeed + 1, ... @default 1 */
  readonly baseSeed?: number;
  /** Namespace of every random stream of the sweep. @default 0 */
  readonly sweepSeed?: number;
  /** Where replies come from; its traits decide threads, concurrency and chunk size. @default inProcessModel() */
  readonly model?: ModelSource;
  /** Stream every model call (docs/streaming.md); results name the model `<model>+stream`. @default false */
  readonly stream?: boolean;
  /** Mark our loop's requests for the prompt cache (LoopOptions.promptCaching). @default true */
  readonly promptCache?: boolean;
  /** The model source sends calls through the Message Batches API: the cache is marked for an hour. @default false */
  readonly batch?: boolean;
  /** Record every run's model calls into a cassette folder, or answer them from one (docs/cassettes.md). @default neither */
  readonly cassette?: CassetteUse;
  /**
   * Worker threads, at most: never more than the chunks left to run (each thread loads the
   * loop anew), and 1 runs inline. A source that is not portable (a real model, live) always
   * runs inline. `onStart` says how many ran. @default the machine's cores
   */
  readonly workers?: number;
  /** Run only this slice of the sweep. @default the whole sweep */
  readonly shard?: Shard;
  /** Runs per unit of work. @default 250; 1 for a real model, so each paid run is written as soon as it ends */
  readonly chunkSize?: number;
  /** Folder for runs.jsonl, runs.csv and summary.json; nothing is written without it. */
  readonly outDir?: string;
  /** Called once the sweep knows its work, before its first run: the threads it runs on (1: inline). */
  readonly onStart?: (started: { readonly workers: number }) => void;
  readonly onProgress?: (done: number, total: number) => void;
  /** Sees each run's record once it is written, in sweep order (a real sweep's health check reads them). */
  readonly onRecord?: (record: RunRecord) => void;
  /** Continue the interrupted sweep in `outDir` (its progress.json) instead of starting over. @default false */
  readonly resume?: boolean;
  /** Delete the sweep in `outDir`, finished or interrupted, and start over; without it (or `resume`) one is refused. @default false */
  readonly discard?: boolean;
  /** `outDir` is the command's default folder (`results/latest`): a finished sweep there is replaced, an interrupted one still refused. @default false */
  readonly defaultFolder?: boolean;
  /** Stop cleanly: no new chunks start, the ones in flight finish and are written, then SweepInterrupted is thrown. */
  readonly signal?: AbortSignal;
  /**
   * Run every arm across these personas: run seed s meets member (s - first seed) mod M, in
   * every scenario that uses the default persona (ensembleCast). @default none
   */
  readonly ensemble?: PersonaEnsemble;
}

/** A sweep stopped by its signal; the finished runs are on disk and `--resume` continues it. */
export class SweepInterrupted extends Error {
  override readonly name = 'SweepInterrupted';
  constructor(
    readonly done: number,
    readonly total: number,
  ) {
    super(`sweep interrupted after ${done} of ${total} runs`);
  }
}

/**
 * Runs the matrix scenario × arm × seed. Chunks may finish in any order on any worker;
 * they are written and summarised strictly in output order, so every output byte
 * depends only on the options, never on the worker count.
 */
export async function runSweep(options: SweepOptions): Promise<SweepSummary> {
  const intent = sweepIntent(options.resume === true, options.discard === true, options.defaultFolder === true);
  if (options.outDir === undefined && intent === 'resume')
    throw UserInputError.single('--resume', '', 'a results folder (--out) to resume');
  // Refused before the folder is claimed: nothing is made for a shard that would hold no run.
  const { shard } = options;
  if (shard !== undefined && shard.count > 1) {
    const runs = options.scenarios.length * options.arms.length * options.seeds;
    const [from, to] = shardBounds(runs, shard);
    if (from === to)
      throw UserInputError.single(
        '--shard',
        `${shard.index}/${shard.count}`,
        `at most ${runs} shards: the sweep has ${runs} runs, so this shard would hold none`,
      );
  }
  // The folder is locked from before its progress is read until the summary is written.
  const folder = options.outDir === undefined ? undefined : claimResultsFolder(options.outDir, intent);
  try {
    return await sweepInto(options, folder);
  } finally {
    folder?.release();
  }
}

async function sweepInto(options: SweepOptions, folder: ResultsFolder | undefined): Promise<SweepSummary> {
  const model = options.model ?? inProcessModel();
  const { ensemble } = options;
  if (ensemble !== undefined && model.kind !== 'simulated')
    throw UserInputError.single(
      '--ensemble',
      '',
      `the simulated model in-process or through the SDK (${model.kind === 'live' ? 'live mode runs one persona' : 'a real model has no persona'})`,
    );
  const definition: SweepDefinition = {
    scenarios: options.scenarios.map(({ scenario, path }) => ({ id: scenario.id, path })),
    arms: options.arms,
    seeds: { base: options.baseSeed ?? 1, count: options.seeds },
    sweepSeed: options.sweepSeed ?? 0,
    model: model.portable ?? 'simulated',
    ...(options.stream === true ? { stream: true as const } : {}),
    ...(options.promptCache === false ? { promptCache: false as const } : {}),
    ...(options.batch === true ? { batch: true as const } : {}),
    ...(ensemble === undefined ? {} : { ensemble: storedEnsemble(ensemble) }),
    ...(options.cassette === undefined ? {} : { cassette: options.cassette }),
  };
  checkSeeds(definition.seeds);
  checkGuardToolNames(options.scenarios, options.arms);
  const shard = options.shard ?? { index: 1, count: 1 };
  const chunkSize = options.chunkSize ?? (model.kind === 'real' ? 1 : 250);
  const plan = planSweep(definition, chunkSize, shard);
  const total = plan.runs;
  // User modules by their path from here and the hash of their text: the same sweep run
  // from another checkout is the same sweep, an edited agent or guard is not.
  const arms = recordedArms(options.arms);
  const identity: SweepIdentity = {
    scenarios: options.scenarios.map(({ scenario, texts }) => ({
      id: scenario.id,
      hash: scenario.hash,
      ...toolsModuleFiles(texts),
    })),
    arms,
    seeds: definition.seeds,
    sweep_seed: definition.sweepSeed,
    model: modelLabel(model.name, options.stream),
    shard,
    chunk_size: chunkSize,
    ...(ensemble === undefined ? {} : { ensemble: { name: ensemble.name, hash: ensemble.hash } }),
    ...(options.promptCache === false ? { prompt_cache: false as const } : {}),
    ...(options.batch === true ? { batch: true as const } : {}),
  };
  const resumed = folder?.progress === undefined ? undefined : { dir: folder.dir, progress: folder.progress };
  if (resumed !== undefined) checkSameSweep(resumed.progress, identity, resumed.dir);

  const cells = new Map<string, CellAccumulator>();
  const cellOf = (scenarioIndex: number, armIndex: number): CellAccumulator => {
    const key = `${scenarioIndex}/${armIndex}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      const scenario = options.scenarios[scenarioIndex]!.scenario;
      cell = new CellAccumulator(
        scenario.id,
        options.arms[armIndex]!.name,
        isImpossible(scenario),
        datasetTasks(scenario).tasks,
      );
      cells.set(key, cell);
    }
    return cell;
  };
  if (resumed !== undefined) {
    // The runs an interrupted sweep finished count as if this process had made them,
    // read one at a time before the writer cuts off whatever a crash left past them.
    const packed = new Float64Array(PACKED_WIDTH);
    const scenarioIndex = new Map(identity.scenarios.map((scenario, i) => [scenario.id, i]));
    const armIndex = new Map(options.arms.map((arm, i) => [arm.name, i]));
    await readInterruptedRuns(resumed.dir, resumed.progress, (record) => {
      packRun(record, packed, 0);
      cellOf(scenarioIndex.get(record.scenario) ?? -1, armIndex.get(record.arm) ?? -1).addPacked(packed, 1);
    });
  }
  const writer = folder?.sweepWriter(identity);
  const first = resumed?.progress.chunks_done ?? 0;
  // A real client, and live sockets, stay in this thread: they do not cross into workers.
  const workers =
    model.portable === null
      ? 1
      : Math.min(Math.max(1, options.workers ?? availableParallelism()), Math.max(1, plan.chunkCount - first));
  options.onStart?.({ workers });
  let done = resumed?.progress.runs_done ?? 0;
  // A real sweep's broken setup is the model's to diagnose (SweepHealth, exit 4); elsewhere
  // an arm failing alike with nothing injected is broken, and ranking it would mislead.
  const health = model.kind === 'real' ? undefined : new ArmHealth();
  let broken: BrokenArm | undefined;
  // Chunks are synced in the background (the writer's group commit); a sync that fails
  // (a full disk) stops the sweep with its error, the files cut back to what was synced.
  let unsynced: unknown;
  const accept = (result: ChunkResult): void => {
    const chunk = plan.chunk(result.index);
    cellOf(chunk.scenarioIndex, chunk.armIndex).addPacked(result.packed);
    writer?.append(result);
    writer?.sync().catch((error: unknown) => {
      unsynced ??= error;
    });
    done += result.runs;
    options.onProgress?.(done, total);
    const { onRecord } = options;
    // Records are parsed only while someone reads them: an arm is cleared by its first good run.
    const watched = health?.watching(options.arms[chunk.armIndex]!.name) === true && broken === undefined;
    if (onRecord === undefined && !watched) return;
    for (const line of result.jsonl.split('\n')) {
      if (line === '') continue;
      const record = JSON.parse(line) as RunRecord;
      if (watched) broken ??= health?.observe(record) ?? undefined;
      onRecord?.(record);
    }
  };

  // Each scenario as every member plays it, built once: a run only picks one.
  const casts = options.scenarios.map(({ scenario, texts }) => ensembleCast(scenario, texts, ensemble?.members));
  const contextOf = (scenarioIndex: number): ChunkContext => {
    const { scenario } = options.scenarios[scenarioIndex]!;
    const cast = casts[scenarioIndex];
    return cast === undefined ? { scenario, model } : { scenario, model, cast };
  };
  const stopped = () => options.signal?.aborted === true || broken !== undefined || unsynced !== undefined;
  if (model.kind === 'real') {
    const run = (index: number) => {
      const chunk = plan.chunk(index);
      return runChunk({ definition, chunk }, contextOf(chunk.scenarioIndex));
    };
    await runInOrder(plan.chunkCount, first, Math.max(1, model.concurrency), run, accept, stopped).catch(
      (error: unknown) => {
        // A run cut by the spend limit is left out; the sweep stops as its stop signal says.
        if (!(error instanceof SpendLimitReached) || options.signal?.aborted !== true) throw error;
      },
    );
  } else if (workers === 1) {
    for (let index = first; index < plan.chunkCount; index++) {
      // A simulated run never waits on I/O, so without this turn of the event loop a
      // signal handler (Ctrl-C) would not run until the whole sweep had finished.
      await new Promise(setImmediate);
      if (stopped()) break;
      const chunk = plan.chunk(index);
      accept(await runChunk({ definition, chunk }, contextOf(chunk.scenarioIndex)));
    }
  } else {
    await runPooled(
      definition,
      {
        scenarios: options.scenarios.map(({ texts }) => texts),
        ...(ensemble === undefined ? {} : { members: ensemble.members }),
      },
      plan,
      first,
      workers,
      accept,
      stopped,
    );
  }
  // The last chunks' sync: a failure is the sweep's, as a failed append is.
  await writer?.sync().catch((error: unknown) => {
    unsynced ??= error;
  });
  if (unsynced !== undefined) {
    writer?.abandon();
    throw unsynced;
  }
  if (broken !== undefined) {
    // Left as an interrupted sweep: its runs stay readable, and the folder says it is not whole.
    writer?.abandon();
    throw new ArmCouldNotRun(broken, done, total);
  }
  if (done < total) {
    writer?.abandon();
    throw new SweepInterrupted(done, total);
  }

  const summary = sweepSummary(
    {
      sweep_seed: definition.sweepSeed,
      seeds: definition.seeds,
      model: modelLabel(model.name, options.stream),
      shard: shard.count === 1 ? null : shard,
      scenarios: options.scenarios.map(({ scenario, texts }) => ({
        id: scenario.id,
        hash: scenario.hash,
        tool_budget: scenario.toolBudget,
        impossible: isImpossible(scenario),
        ...toolsModuleFiles(texts),
        ...datasetTasks(scenario),
      })),
      arms,
    },
    [...cells.values()].map((cell) => cell.summary()),
    model.live?.label(),
    definition.ensemble,
  );
  if (writer !== undefined) {
    // Timelines for the report's drill-down: a simulated run replays exactly, so the
    // selected runs are run again with their events recorded. A real model would not
    // replay (and would cost money again): its sweeps have no traces; nor have live ones.
    const traces =
      model.kind !== 'simulated'
        ? []
        : await sweepTraces({
            scenarios: options.scenarios,
            casts,
            arms: options.arms,
            recorded: arms,
            cells,
            armsFile: options.armsFile,
            baseSeed: definition.seeds.base,
            sweepSeed: definition.sweepSeed,
            model,
            stream: options.stream === true,
            promptCache: options.promptCache !== false,
            cassette: options.cassette,
            ensemble: ensemble?.name,
          });
    writer.close(summary, traces);
  }
  return summary;
}
