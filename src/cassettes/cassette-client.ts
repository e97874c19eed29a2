import type { VirtualClock } from '../clock/virtual-clock.js';
import { MODEL_FAULT_KINDS, type ModelFaultKind } from '../faults/model-faults.js';
import type { Message, ModelClient, ModelRequest } from '../model/model-client.js';
import {
  type Cassette,
  CassetteError,
  type CassetteExchange,
  type CassetteRun,
  describeRun,
  readCassette,
  writeCassette,
} from './cassette-file.js';
import { modelErrorOf, storedModelError } from './model-error-json.js';
import { firstDifference, requestParts } from './request-fingerprint.js';

/** A sweep's use of a cassette folder: record every model call into it, or answer every call from it. */
export interface CassetteUse {
  readonly mode: 'record' | 'replay';
  /** The cassette folder (absolute). */
  readonly dir: string;
}

/** What a cassette client needs of its run: which run it is, its clock, and the counts of injected model faults. */
export interface CassetteRunContext {
  readonly run: CassetteRun;
  readonly clock: VirtualClock;
  readonly faultCounts: Record<ModelFaultKind, number>;
}

/** A request the cassette does not hold: the agent, its prompt or its tools changed since the recording. */
export class CassetteMismatchError extends Error {
  override readonly name = 'CassetteMismatchError';
}

/** The fault kind whose count went up during a call, or null. */
function injectedDuring(before: Readonly<Record<ModelFaultKind, number>>, after: Record<ModelFaultKind, number>) {
  for (const kind of MODEL_FAULT_KINDS) if (after[kind] > before[kind]) return kind;
  return null;
}

/**
 * A client that passes every call on to `inner` and keeps it (the request's digests, the
 * reply or the error, the virtual time the call took, the fault the endpoint injected) for
 * `save` to write once the run is over.
 *
 * @example
 * const recorder = new RecordingClient(client, { run, clock, faultCounts });
 * await loop.run(prompt); // with model: recorder
 * recorder.save(dir);
 */
export class RecordingClient implements ModelClient {
  readonly name: string;
  readonly #inner: ModelClient;
  readonly #context: CassetteRunContext;
  readonly #exchanges: CassetteExchange[] = [];

  constructor(inner: ModelClient, context: CassetteRunContext) {
    this.name = inner.name;
    this.#inner = inner;
    this.#context = context;
  }

  async create(request: ModelRequest, options?: { readonly signal?: AbortSignal }): Promise<Message> {
    const { clock, faultCounts } = this.#context;
    // Taken before the call: the loop goes on appending to the request's messages after it.
    const parts = requestParts(request);
    const started = clock.now();
    const counted = { ...faultCounts };
    const taken = () => ({
      request: parts,
      clock_ms: clock.now() - started,
      injected: injectedDuring(counted, faultCounts),
    });
    try {
      const reply = await this.#inner.create(request, options);
      this.#exchanges.push({ ...taken(), reply: structuredClone(reply) });
      return reply;
    } catch (error) {
      this.#exchanges.push({ ...taken(), error: storedModelError(error) });
      throw error;
    }
  }

  /** Writes the run's cassette into `dir`. */
  save(dir: string): void {
    writeCassette(dir, this.#context.run, this.name, this.#exchanges);
  }
}

/**
 * A client that answers every call from a run's cassette, with no model behind it: the
 * recorded reply or error, after the recorded virtual time, the injected fault counted
 * again. A request that differs from the recorded one (or one more than were recorded)
 * fails with a CassetteMismatchError naming the run, the call and the first part that differs.
 *
 * @example
 * const client = ReplayingClient.open(dir, 'simulated', { run, clock, faultCounts });
 */
export class ReplayingClient implements ModelClient {
  readonly name: string;
  readonly #cassette: Cassette | CassetteError;
  readonly #context: CassetteRunContext;
  #next = 0;

  /** `name`: the client's name when the run has no cassette; one that has is named as recorded. */
  constructor(cassette: Cassette | CassetteError, name: string, context: CassetteRunContext) {
    this.name = cassette instanceof CassetteError ? name : cassette.model;
    this.#cassette = cassette;
    this.#context = context;
  }

  /**
   * The replaying client of a run, from its cassette in `dir`. A run without one (never
   * recorded) gets a client whose first call fails with the CassetteError: the run fails,
   * naming the file, and the sweep goes on.
   */
  static open(dir: string, name: string, context: CassetteRunContext): ReplayingClient {
    try {
      return new ReplayingClient(readCassette(dir, context.run), name, context);
    } catch (error) {
      if (error instanceof CassetteError) return new ReplayingClient(error, name, context);
      throw error;
    }
  }

  async create(request: ModelRequest): Promise<Message> {
    const cassette = this.#cassette;
    if (cassette instanceof CassetteError) throw cassette;
    const call = this.#next++;
    const where = `${describeRun(this.#context.run)}, model call ${call + 1}`;
    const exchange = cassette.exchanges[call];
    if (exchange === undefined)
      throw new CassetteMismatchError(
        `${where}: the cassette holds ${cassette.exchanges.length} calls of this run (${cassette.path})`,
      );
    const differs = firstDifference(exchange.request, requestParts(request));
    if (differs !== null)
      throw new CassetteMismatchError(
        `${where}: the request differs from the recorded one at ${differs} (${cassette.path})`,
      );
    const { clock, faultCounts } = this.#context;
    clock.sleep(exchange.clock_ms);
    if (exchange.injected !== null) faultCounts[exchange.injected] += 1;
    if (exchange.error !== undefined) throw modelErrorOf(exchange.error);
    if (exchange.reply === undefined)
      throw new CassetteMismatchError(`${where}: the cassette holds neither a reply nor an error`);
    return structuredClone(exchange.reply);
  }
}
