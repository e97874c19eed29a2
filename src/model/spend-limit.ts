import type { Message, ModelClient, ModelRequest, RawMessageStreamEvent } from './model-client.js';
import { streamOf } from './streaming/stream-of.js';
import { usageCost, type UsageCounts } from './usage.js';

/**
 * A model call refused because the sweep has spent its limit. The run it was part of is
 * left out of the results (it would be a failure of the harness, not of the agent), and
 * the sweep stops as a Ctrl-C stops it: `--resume` runs it again.
 */
export class SpendLimitReached extends Error {
  override readonly name = 'SpendLimitReached';
}

/**
 * What a sweep may spend on a real model, and what it has spent: every answered call is
 * charged at its model's list price, prompt-cache reads and writes priced as such. Once
 * the spend reaches the limit no new call starts; the calls already sent are paid, so the
 * sweep ends within the calls in flight of its limit (one, at concurrency 1).
 */
export class SpendLimit {
  readonly limitUsd: number;
  #spentUsd = 0;
  readonly #reached = new AbortController();

  constructor(limitUsd: number) {
    this.limitUsd = limitUsd;
  }

  get spentUsd(): number {
    return this.#spentUsd;
  }

  /** Aborted once the spend reaches the limit: the sweep's stop. */
  get signal(): AbortSignal {
    return this.#reached.signal;
  }

  charge(usd: number): void {
    this.#spentUsd += usd;
    if (this.#spentUsd >= this.limitUsd && !this.#reached.signal.aborted) this.#reached.abort();
  }

  /** Throws SpendLimitReached when no further call may start. */
  check(): void {
    if (this.#reached.signal.aborted)
      throw new SpendLimitReached(`the sweep's spend reached its limit of $${this.limitUsd}`);
  }
}

/** `inner`, charging `limit` for every answered call and refusing any call once it is reached; one a run. */
export class SpendLimitedModel implements ModelClient {
  readonly name: string;
  readonly #inner: ModelClient;
  readonly #limit: SpendLimit;
  #refused = false;

  constructor(inner: ModelClient, limit: SpendLimit) {
    this.name = inner.name;
    this.#inner = inner;
    this.#limit = limit;
  }

  /** Whether a call was refused: the run this client served did not finish as the agent would have. */
  get refused(): boolean {
    return this.#refused;
  }

  #check(): void {
    try {
      this.#limit.check();
    } catch (error) {
      this.#refused = true;
      throw error;
    }
  }

  async create(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): Promise<Message> {
    this.#check();
    const reply = await this.#inner.create(request, options);
    this.#limit.charge(usageCost(reply.model, reply.usage));
    return reply;
  }

  async *stream(
    request: ModelRequest,
    options: { readonly signal?: AbortSignal } = {},
  ): AsyncGenerator<RawMessageStreamEvent> {
    this.#check();
    let model = request.model;
    let usage: UsageCounts | undefined;
    try {
      for await (const event of streamOf(this.#inner, request, options)) {
        if (event.type === 'message_start') {
          model = event.message.model;
          usage = { ...event.message.usage };
        } else if (event.type === 'message_delta' && usage !== undefined) {
          usage = { ...usage, output_tokens: event.usage.output_tokens };
        }
        yield event;
      }
    } finally {
      // A stream cut part-way is paid for what it sent.
      if (usage !== undefined) this.#limit.charge(usageCost(model, usage));
    }
  }
}
