import { openAgentRun } from '../agents/agent-run-session.js';
import type { AgentRunEnding } from '../agents/agent-run-session.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { CellAccumulator } from '../sweep/cell-accumulator.js';
import { PACKED_WIDTH, packRun } from '../sweep/packed-metrics.js';
import type { RunRecord } from '../results/run-record-schema.js';
import type { ScenarioSource } from '../sweep/scenario-source.js';
import { datasetTasks, isImpossible, sweepSummary, type SweepSummary } from '../sweep/sweep-summary.js';
import { checkSeeds } from '../sweep/sweep-plan.js';
import type { StoredSweepIdentity } from '../results/progress-schema.js';
import { isDiskFull } from '../results/results-fs.js';
import { SERVED_MODEL } from '../results/served-model.js';
import type { AgentEvent } from '../loop/events.js';
import type { Trace } from '../sweep/traces.js';
import { ServedRun } from './served-run.js';
import type { ServedResults } from './served-results.js';
import { servedTrace } from './served-trace.js';
import { ServeRefusal } from './serve-refusal.js';

export { SERVED_MODEL };

export interface ServedSweepOptions {
  readonly source: ScenarioSource & { readonly ref?: string };
  /** The arm's name, as records write it (`agent:<label>`). */
  readonly arm: string;
  readonly seeds: { readonly base: number; readonly count: number };
  readonly sweepSeed: number;
  /** Where ended runs go; nothing is written without it. */
  readonly results?: ServedResults;
  /** Every run's model calls recorded into, or answered from, a cassette folder (docs/cassettes.md). @default neither */
  readonly cassette?: CassetteUse;
  /** Hears each run as it ends, with how many have. */
  readonly onEnded?: (record: RunRecord, ended: number, total: number) => void;
}

/**
 * The runs of one served sweep (one scenario, one arm, a range of seeds), each a session
 * an out-of-process agent drives over HTTP. Runs in flight are independent: each has its
 * own world, seeded tools, model fault state and meter. Each seed runs once.
 *
 * @example
 * const sweep = new ServedSweep({ source, arm: 'agent:mine', seeds: { base: 1, count: 20 }, sweepSeed: 0 });
 * const run = sweep.start();
 * const record = await sweep.end(run.id, { returned: 'done' });
 */
export class ServedSweep {
  readonly options: ServedSweepOptions;
  readonly #runs = new Map<string, ServedRun>();
  readonly #records = new Map<number, { readonly record: RunRecord; readonly run: ServedRun }>();
  /** Runs whose record is being stored, by id. */
  readonly #storing = new Map<string, Promise<RunRecord>>();
  #next: number;

  constructor(options: ServedSweepOptions) {
    // Past 2^53 - 1, seed + 1 rounds back to seed: picking the next seed would never end.
    checkSeeds(options.seeds);
    this.options = options;
    this.#next = options.seeds.base;
  }

  get total(): number {
    return this.options.seeds.count;
  }

  /** Runs started, ended or not. */
  get started(): number {
    return this.#runs.size;
  }

  get ended(): number {
    return this.#records.size;
  }

  get complete(): boolean {
    return this.#records.size === this.total;
  }

  /** Runs started and not yet ended. */
  inFlight(): ServedRun[] {
    return [...this.#runs.values()].filter((run) => run.ended === undefined);
  }

  /** Starts run `seed`, or the lowest seed not started yet. */
  start(seed?: number): ServedRun {
    const { base, count } = this.options.seeds;
    if (seed === undefined) {
      while (this.#next < base + count && this.#started(this.#next)) this.#next += 1;
      if (this.#next >= base + count)
        throw new ServeRefusal(
          409,
          'sweep_started',
          `every seed of this sweep (${base}..${base + count - 1}) has been started`,
        );
      seed = this.#next;
    }
    if (!Number.isInteger(seed) || seed < base || seed >= base + count)
      throw new ServeRefusal(
        400,
        'seed_out_of_range',
        `seed ${seed} is not in this sweep: give one of ${base}..${base + count - 1}, or none for the next`,
      );
    if (this.#started(seed))
      throw new ServeRefusal(
        409,
        'seed_started',
        `seed ${seed} has already been started (run ${runId(seed)}); each seed runs once`,
      );
    const events: AgentEvent[] = [];
    const session = openAgentRun({
      sweepSeed: this.options.sweepSeed,
      scenario: this.options.source.scenario,
      arm: this.options.arm,
      seed,
      agentName: this.options.arm,
      api: 'anthropic',
      modelLabel: SERVED_MODEL,
      cassette: this.options.cassette,
      onEvent: (event) => events.push(event),
    });
    const run = new ServedRun(runId(seed), session, events);
    this.#runs.set(run.id, run);
    return run;
  }

  /** The run `id`, started and not ended; a refusal naming what to do otherwise. */
  run(id: string): ServedRun {
    const run = this.#runs.get(id);
    if (run === undefined)
      throw new ServeRefusal(404, 'unknown_run', `no run '${id}' in this sweep; start one with POST /runs`);
    if (run.ended !== undefined) {
      const { verdict, failure_reason: failure } = run.ended.record;
      // A run serve ended itself (idle timeout) says so: the agent may not know it went quiet.
      const by = failure?.error_class === 'AgentWentSilent' ? `; serve ended it as failed: ${failure.message}` : '';
      throw new ServeRefusal(
        409,
        'run_ended',
        `run ${id} has ended (verdict ${verdict}${by}); start another with POST /runs`,
      );
    }
    return run;
  }

  /**
   * Ends run `id`: its record, judged on its world, on disk before this resolves. A record
   * that cannot be written (a full disk) leaves the run open, refused with 507 (500 for
   * another write failure) naming the folder: the same end, retried once there is room,
   * stores the record judged the first time. An end asked for while the same run's record
   * is being stored waits for that one: a record is stored once.
   */
  end(id: string, ending: AgentRunEnding): Promise<RunRecord> {
    const storing = this.#storing.get(id);
    if (storing !== undefined) return storing;
    const run = this.run(id);
    const { record } = run.judge(ending);
    const stored = this.#store(run, record).finally(() => this.#storing.delete(id));
    this.#storing.set(id, stored);
    return stored;
  }

  async #store(run: ServedRun, record: RunRecord): Promise<RunRecord> {
    try {
      await this.options.results?.store(record);
    } catch (error) {
      const full = isDiskFull(error);
      const where = this.options.results?.dir ?? 'the results folder';
      throw new ServeRefusal(
        full ? 507 : 500,
        full ? 'insufficient_storage' : 'api_error',
        `run ${run.id} has not ended: its record could not be stored (${error instanceof Error ? error.message : String(error)}); ${full ? 'free space' : 'make it writable'} where ${where} is and POST /runs/${run.id}/end again`,
        { cause: error },
      );
    }
    run.stored();
    this.#records.set(run.seed, { record, run });
    this.options.onEnded?.(record, this.#records.size, this.total);
    return record;
  }

  /** The summary of the ended runs, in seed order, and the traces of the runs worth one. */
  summarize(replayDir: string): { summary: SweepSummary; traces: Trace[]; records: RunRecord[] } {
    const { source, arm, seeds, sweepSeed } = this.options;
    const { scenario } = source;
    const cell = new CellAccumulator(scenario.id, arm, isImpossible(scenario), datasetTasks(scenario).tasks);
    const ordered = [...this.#records.values()].sort((a, b) => a.record.seed - b.record.seed);
    const packed = new Float64Array(PACKED_WIDTH);
    for (const { record } of ordered) {
      packRun(record, packed, 0);
      cell.addPacked(packed, 1);
    }
    const summary = sweepSummary(
      {
        sweep_seed: sweepSeed,
        seeds,
        model: SERVED_MODEL,
        shard: null,
        scenarios: [
          {
            id: scenario.id,
            hash: scenario.hash,
            tool_budget: scenario.toolBudget,
            impossible: isImpossible(scenario),
            ...datasetTasks(scenario),
          },
        ],
        arms: [{ name: arm, guards: [] }],
      },
      [cell.summary()],
    );
    const traces = cell.traceCandidates().map(({ seed, reasons }) => {
      const { record, run } = this.#records.get(seed)!;
      return servedTrace({ record, run, reasons, scenarioRef: source.ref ?? scenario.id, dir: replayDir });
    });
    return { summary, traces, records: ordered.map(({ record }) => record) };
  }

  /** Every ended run's record and tool events, in seed order. */
  endedRuns(): Array<{ readonly record: RunRecord; readonly events: readonly AgentEvent[] }> {
    return [...this.#records.values()]
      .sort((a, b) => a.record.seed - b.record.seed)
      .map(({ record, run }) => ({ record, events: run.events }));
  }

  #started(seed: number): boolean {
    return this.#runs.has(runId(seed));
  }
}

/** What progress.json records of a served sweep: `run --resume` refuses it, as its model differs. */
export function servedSweepIdentity(options: Omit<ServedSweepOptions, 'results' | 'onEnded'>): StoredSweepIdentity {
  const { source, arm, seeds, sweepSeed } = options;
  return {
    scenarios: [{ id: source.scenario.id, hash: source.scenario.hash }],
    arms: [{ name: arm, guards: [] }],
    seeds,
    sweep_seed: sweepSeed,
    model: SERVED_MODEL,
    shard: { index: 1, count: 1 },
    chunk_size: 1,
  };
}

/** A run's id: its seed, as each seed runs once per served sweep. */
export function runId(seed: number): string {
  return `run-${seed}`;
}
