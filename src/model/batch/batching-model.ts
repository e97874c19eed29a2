import { createHash } from 'node:crypto';
import { APIConnectionError, APIError } from '@anthropic-ai/sdk/core/error';
import { realTime } from '../../clock/real-time.js';
import type { Message, ModelClient, ModelRequest } from '../model-client.js';

/** One batch sent: its id, and the custom ids of the requests it carries (a line of batches.jsonl). */
export interface BatchEntry {
  readonly batch_id: string;
  readonly custom_ids: readonly string[];
}

/** One request of a batch and its result, as the Message Batches API returns them. */
export interface BatchResultLine {
  readonly custom_id: string;
  readonly result:
    | { readonly type: 'succeeded'; readonly message: Message }
    | {
        readonly type: 'errored';
        readonly error: { readonly error?: { readonly type?: string; readonly message?: string } };
      }
    | { readonly type: 'canceled' | 'expired' };
}

/** The Message Batches API as the batching model uses it (the SDK's `messages.batches`). */
export interface BatchApi {
  create(
    requests: ReadonlyArray<{ readonly custom_id: string; readonly params: ModelRequest }>,
  ): Promise<{ readonly id: string }>;
  retrieve(id: string): Promise<{ readonly processing_status: string }>;
  results(id: string): Promise<AsyncIterable<BatchResultLine>>;
}

export interface BatchingOptions {
  readonly api: BatchApi;
  /** What results calls the model. */
  readonly name: string;
  /** Batches a sweep sent before a crash: their requests are not sent again, their results are read. @default none */
  readonly sent?: readonly BatchEntry[];
  /** Records a batch as sent, before the sweep waits on it (the results folder's batches.jsonl). */
  readonly record: (entry: BatchEntry) => void;
  /** The first wait between two status reads, doubled up to a minute. @default 5000 */
  readonly pollMs?: number;
  /** @default real time */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told of a recorded batch the API no longer knows, whose requests are sent again. @default nothing */
  readonly onLost?: (batchId: string) => void;
}

/** The HTTP status an errored request's error type stands for, so the SDK's class and our loop's recovery see it. */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface Pending {
  readonly customId: string;
  readonly request: ModelRequest;
  readonly resolve: (message: Message) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A sweep's model calls through the Message Batches API (half the price; results in
 * minutes to hours). Runs go on in lockstep: every run in flight asks for its next reply,
 * and once none can go further (the turn of the event loop after the last asked) their
 * requests go out together as one batch. The sweep polls it with backoff and hands each
 * run its reply. A request has a custom id made of its run, its place in the run and its
 * content, so a resumed sweep finds the requests it already sent in the batches recorded
 * before the crash and reads their results instead of sending them again.
 */
export class BatchingModel {
  readonly name: string;
  readonly #options: BatchingOptions;
  /** Which recorded batch holds each custom id. */
  readonly #sentIn = new Map<string, string>();
  readonly #results = new Map<string, Promise<Map<string, BatchResultLine>>>();
  #pending: Pending[] = [];
  #scheduled = false;

  constructor(options: BatchingOptions) {
    this.name = options.name;
    this.#options = options;
    for (const entry of options.sent ?? []) for (const id of entry.custom_ids) this.#sentIn.set(id, entry.batch_id);
  }

  /** The client of one run, named by `run` (scenario, arm, seed): its calls are numbered in order. */
  forRun(run: string): ModelClient {
    let call = 0;
    return {
      name: this.name,
      create: (request) => {
        call += 1;
        const digest = createHash('sha256')
          .update(`${run}\n${call}\n${JSON.stringify(request)}`)
          .digest('hex');
        return new Promise<Message>((resolve, reject) => {
          this.#pending.push({ customId: `r_${digest.slice(0, 48)}`, request, resolve, reject });
          if (!this.#scheduled) {
            this.#scheduled = true;
            // After every run that can go on has asked: they all wait on replies now.
            setImmediate(() => {
              this.#scheduled = false;
              void this.#flush();
            });
          }
        });
      },
    };
  }

  async #flush(): Promise<void> {
    const due = this.#pending;
    this.#pending = [];
    const fresh = due.filter((entry) => !this.#sentIn.has(entry.customId));
    try {
      if (fresh.length > 0) await this.#send(fresh);
    } catch (error) {
      for (const entry of fresh) entry.reject(error);
      const sent = new Set(fresh);
      return this.#settleAll(due.filter((entry) => !sent.has(entry)));
    }
    await this.#settleAll(due);
  }

  async #send(entries: readonly Pending[]): Promise<void> {
    const { id } = await this.#options.api.create(
      entries.map((entry) => ({ custom_id: entry.customId, params: entry.request })),
    );
    const customIds = entries.map((entry) => entry.customId);
    this.#options.record({ batch_id: id, custom_ids: customIds });
    for (const customId of customIds) this.#sentIn.set(customId, id);
  }

  /** Each batch's entries settled as that batch ends: one slow or failed batch holds no other's runs. */
  async #settleAll(entries: readonly Pending[]): Promise<void> {
    const byBatch = new Map<string, Pending[]>();
    for (const entry of entries) {
      const id = this.#sentIn.get(entry.customId)!;
      byBatch.set(id, [...(byBatch.get(id) ?? []), entry]);
    }
    await Promise.all([...byBatch].map(([id, waiting]) => this.#settleBatch(id, waiting)));
  }

  async #settleBatch(id: string, waiting: readonly Pending[]): Promise<void> {
    let lines: Map<string, BatchResultLine>;
    try {
      lines = await this.#resultsOf(id);
    } catch (error) {
      if (!isNotFound(error)) {
        for (const entry of waiting) entry.reject(error);
        return;
      }
      // A batch on record the API no longer knows (another key or server, or results
      // expired): its requests are sent again, which is said once.
      this.#options.onLost?.(id);
      for (const entry of waiting) this.#sentIn.delete(entry.customId);
      try {
        await this.#send(waiting);
      } catch (sendError) {
        for (const entry of waiting) entry.reject(sendError);
        return;
      }
      return this.#settleAll(waiting);
    }
    for (const entry of waiting) {
      const line = lines.get(entry.customId);
      if (line === undefined) entry.reject(new Error(`message batch ${id} has no result for ${entry.customId}`));
      else settle(entry, line);
    }
  }

  /** A batch's results by custom id, once it has ended (read once, shared by every run that waits on it). */
  #resultsOf(id: string): Promise<Map<string, BatchResultLine>> {
    let results = this.#results.get(id);
    if (results === undefined) {
      results = this.#ended(id).then(() =>
        this.#patiently(async () => {
          const lines = new Map<string, BatchResultLine>();
          for await (const line of await this.#options.api.results(id)) lines.set(line.custom_id, line);
          return lines;
        }),
      );
      // A failure is not kept: the next wait on the batch reads it again.
      results.catch(() => this.#results.delete(id));
      this.#results.set(id, results);
    }
    return results;
  }

  async #ended(id: string): Promise<void> {
    const sleep = this.#options.sleep ?? realTime.sleep;
    let wait = this.#options.pollMs ?? 5000;
    while ((await this.#patiently(() => this.#options.api.retrieve(id))).processing_status !== 'ended') {
      await sleep(wait);
      wait = Math.min(wait * 2, 60_000);
    }
  }

  /**
   * `read`, tried again after a dropped connection, a 429 or a 5xx, with backoff, for up
   * to an hour: a batch is waited on for hours, and one blip must not fail every request
   * in it (nor send them again, paid twice).
   */
  async #patiently<T>(read: () => Promise<T>): Promise<T> {
    const sleep = this.#options.sleep ?? realTime.sleep;
    let wait = this.#options.pollMs ?? 5000;
    let waited = 0;
    for (;;) {
      try {
        return await read();
      } catch (error) {
        if (!isTransient(error) || waited >= 3_600_000) throw error;
        await sleep(wait);
        waited += wait;
        wait = Math.min(wait * 2, 60_000);
      }
    }
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof APIError && error.status === 404;
}

function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIError && typeof error.status === 'number' && (error.status === 429 || error.status >= 500);
}

function settle(entry: Pending, line: BatchResultLine): void {
  const { result } = line;
  if (result.type === 'succeeded') {
    entry.resolve(result.message);
    return;
  }
  if (result.type === 'errored') {
    // A batch's error carries no headers (no retry-after): recovery backs off on its own.
    const type = result.error.error?.type ?? 'api_error';
    entry.reject(APIError.generate(STATUS_OF_TYPE[type] ?? 500, result.error, undefined, new Headers()));
    return;
  }
  entry.reject(
    APIError.generate(
      500,
      { type: 'error', error: { type: 'api_error', message: `the batch request was ${result.type}` } },
      undefined,
      new Headers(),
    ),
  );
}
