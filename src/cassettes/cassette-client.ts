import type { VirtualClock } from '../clock/virtual-clock.js';
import { MODEL_FAULT_KINDS, type ModelFaultKind } from '../faults/model-faults.js';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelClient, ModelRequest } from '../model/model-client.js';
import { streamOf } from '../model/streaming/stream-of.js';
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
import { firstDifference, type RequestParts, requestParts } from './request-fingerprint.js';

/** A sweep's use of a cassette folder: record every model call into it, or answer every call from it. */
export interface CassetteUse {
  readonly mode: 'record' | 'replay';
  /** The cassette folder (absolute). */
  readonly dir: string;
  /**
   * A replay's calls the cassette lacks go to the live model, and the run's cassette is
   * written again with them (`--record-missing`); absent: such a call fails its run.
   */
  readonly recordMissing?: true;
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
 * Starts measuring one call: what a cassette keeps of it besides its answer (the request's
 * digests, the virtual time since now, the model fault injected meanwhile), read once the
 * call is over.
 */
export function measureCall(
  request: RequestParts,
  { clock, faultCounts }: CassetteRunContext,
): () => Pick<CassetteExchange, 'request' | 'clock_ms' | 'injected'> {
  const started = clock.now();
  const counted = { ...faultCounts };
  return () => ({ request, clock_ms: clock.now() - started, injected: injectedDuring(counted, faultCounts) });
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
  readonly #exchanges: CassetteExchange[];

  /** `before`: calls of the run already answered (replayed ones, with `--record-missing`), kept first. */
  constructor(inner: ModelClient, context: CassetteRunContext, before: readonly CassetteExchange[] = []) {
    this.name = inner.name;
    this.#inner = inner;
    this.#context = context;
    this.#exchanges = [...before];
  }

  async create(request: ModelRequest, options?: { readonly signal?: AbortSignal }): Promise<Message> {
    // Taken before the call: the loop goes on appending to the request's messages after it.
    const taken = measureCall(requestParts(request), this.#context);
    try {
      const reply = await this.#inner.create(request, options);
      this.#exchanges.push({ ...taken(), reply: structuredClone(reply) });
      return reply;
    } catch (error) {
      this.#exchanges.push({ ...taken(), error: storedModelError(error) });
      throw error;
    }
  }

  /**
   * The same call streamed: its events are passed on as they come and kept, with the error
   * that cut the stream, if one did. The virtual time kept is what the call took while the
   * loop waited for events, not what the loop spent between them.
   */
  async *stream(
    request: ModelRequest,
    options?: { readonly signal?: AbortSignal },
  ): AsyncGenerator<RawMessageStreamEvent> {
    const { clock, faultCounts } = this.#context;
    const parts = requestParts(request);
    const counted = { ...faultCounts };
    const events: RawMessageStreamEvent[] = [];
    let waited = 0;
    let mark = clock.now();
    let error: unknown;
    let failed = false;
    try {
      for await (const event of streamOf(this.#inner, request, options)) {
        waited += clock.now() - mark;
        events.push(structuredClone(event));
        yield event;
        mark = clock.now();
      }
      waited += clock.now() - mark;
    } catch (thrown) {
      waited += clock.now() - mark;
      [error, failed] = [thrown, true];
      throw thrown;
    } finally {
      // Also when the loop stops reading early: the events it read are what a replay gives it.
      this.#exchanges.push({
        request: parts,
        clock_ms: waited,
        injected: injectedDuring(counted, faultCounts),
        events,
        ...(failed ? { error: storedModelError(error) } : {}),
      });
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
  /** With `--record-missing`: the live model a call the cassette lacks goes to. */
  readonly #live: ModelClient | undefined;
  /** From the first call the cassette lacked on: the live calls, after the replayed ones before it. */
  #recorder: RecordingClient | undefined;
  #next = 0;

  /**
   * `name`: the client's name when the run has no cassette; one that has is named as
   * recorded. `live`: where a call the cassette lacks goes instead of failing.
   */
  constructor(cassette: Cassette | CassetteError, name: string, context: CassetteRunContext, live?: ModelClient) {
    this.name = cassette instanceof CassetteError ? name : cassette.model;
    this.#cassette = cassette;
    this.#context = context;
    this.#live = live;
  }

  /**
   * The replaying client of a run, from its cassette in `dir`. A run without one (never
   * recorded) gets a client whose first call fails with the CassetteError: the run fails,
   * naming the file, and the sweep goes on.
   */
  static open(dir: string, name: string, context: CassetteRunContext, live?: ModelClient): ReplayingClient {
    try {
      return new ReplayingClient(readCassette(dir, context.run), name, context, live);
    } catch (error) {
      if (error instanceof CassetteError) return new ReplayingClient(error, name, context, live);
      throw error;
    }
  }

  /** Whether a call went to the live model (`--record-missing`): the run's cassette is to be written again. */
  get recorded(): boolean {
    return this.#recorder !== undefined;
  }

  /** Writes the run's cassette again, the replayed calls then the live ones, when a call went live. */
  saveRecorded(dir: string): void {
    this.#recorder?.save(dir);
  }

  async create(request: ModelRequest, options?: { readonly signal?: AbortSignal }): Promise<Message> {
    // Once a call went live, the rest of the run does: its transcript is no longer the recorded one.
    if (this.#recorder !== undefined) return this.#recorder.create(request, options);
    const taken = this.#take(request, false);
    if (taken instanceof Error) return this.#goLive(taken).create(request, options);
    if (taken.error !== undefined) throw modelErrorOf(taken.error);
    return structuredClone(taken.reply!);
  }

  /** The recorded call streamed again: its events, then the error that cut it, if one did. */
  async *stream(
    request: ModelRequest,
    options?: { readonly signal?: AbortSignal },
  ): AsyncGenerator<RawMessageStreamEvent> {
    if (this.#recorder !== undefined) return yield* this.#recorder.stream(request, options);
    const taken = this.#take(request, true);
    if (taken instanceof Error) return yield* this.#goLive(taken).stream(request, options);
    for (const event of taken.events!) yield structuredClone(event);
    if (taken.error !== undefined) throw modelErrorOf(taken.error);
  }

  /**
   * The next recorded call, its time slept and its injected fault counted again, when the
   * request is the recorded one and was delivered the same way (streamed or whole); else
   * why not.
   */
  #take(request: ModelRequest, streamed: boolean): CassetteExchange | CassetteError | CassetteMismatchError {
    const cassette = this.#cassette;
    const call = this.#next++;
    if (cassette instanceof CassetteError) return cassette;
    const where = `${describeRun(this.#context.run)}, model call ${call + 1}`;
    const mismatch = (problem: string) => new CassetteMismatchError(`${where}: ${problem} (${cassette.path})`);
    const exchange = cassette.exchanges[call];
    if (exchange === undefined) return mismatch(`the cassette holds ${cassette.exchanges.length} calls of this run`);
    const differs = firstDifference(exchange.request, requestParts(request));
    if (differs !== null) return mismatch(`the request differs from the recorded one at ${differs}`);
    if ((exchange.events !== undefined) !== streamed)
      return mismatch(
        streamed
          ? 'the call was recorded whole; replay without --stream'
          : 'the call was recorded streamed; replay with --stream',
      );
    if (exchange.error === undefined && exchange.reply === undefined && exchange.events === undefined)
      return mismatch('the cassette holds neither a reply nor an error');
    const { clock, faultCounts } = this.#context;
    clock.sleep(exchange.clock_ms);
    if (exchange.injected !== null) faultCounts[exchange.injected] += 1;
    return exchange;
  }

  /**
   * A call the cassette lacks: it fails, or, with a live model behind (`--record-missing`),
   * it and every later call of the run go there, recorded after the calls replayed before it.
   */
  #goLive(problem: Error): ModelClient & Pick<RecordingClient, 'stream'> {
    if (this.#live === undefined) throw problem;
    const cassette = this.#cassette;
    const replayed = cassette instanceof CassetteError ? [] : cassette.exchanges.slice(0, this.#next - 1);
    this.#recorder = new RecordingClient(this.#live, this.#context, replayed);
    return this.#recorder;
  }
}
