import { describe, expect, it } from 'vitest';
import type { Message, ModelClient, ModelRequest } from './model-client.js';
import { SpendLimit, SpendLimitedModel, SpendLimitReached } from './spend-limit.js';
import { usageCost } from './usage.js';

const REQUEST: ModelRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 10,
  messages: [{ role: 'user', content: 'hi' }],
};

/** Every reply reads 10,000 tokens and writes 100: $0.0315 at Sonnet's prices. */
const reply = {
  id: 'msg',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'ok', citations: null }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10_000, output_tokens: 100, cache_creation_input_tokens: null, cache_read_input_tokens: null },
} as unknown as Message;
const CALL = usageCost('claude-sonnet-4-5', reply.usage);

/** A model that answers each call once `release` is called: calls in flight at once. */
function slowModel(): ModelClient & { release: () => void } {
  const waiting: Array<() => void> = [];
  return {
    name: 'slow',
    create: () => new Promise<Message>((resolve) => waiting.push(() => resolve(structuredClone(reply)))),
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

describe('SpendLimitedModel', () => {
  it('charges every answered call and refuses the first call after the limit: within one call of it', async () => {
    const limit = new SpendLimit(0.1);
    const model = new SpendLimitedModel({ name: 'm', create: async () => structuredClone(reply) }, limit);
    let answered = 0;
    await expect(
      (async () => {
        for (;;) {
          await model.create(REQUEST);
          answered += 1;
        }
      })(),
    ).rejects.toBeInstanceOf(SpendLimitReached);
    expect(answered).toBe(Math.ceil(0.1 / CALL));
    expect(limit.spentUsd).toBeGreaterThanOrEqual(0.1);
    expect(limit.spentUsd - 0.1).toBeLessThan(CALL);
    expect(limit.signal.aborted).toBe(true);
    expect(model.refused).toBe(true);
  });

  it('pays for the calls in flight when the limit is passed, and starts none after', async () => {
    const limit = new SpendLimit(0.05);
    const slow = slowModel();
    const runs = [0, 1, 2].map(() => new SpendLimitedModel(slow, limit));
    const inFlight = runs.map((run) => run.create(REQUEST));
    slow.release();
    await Promise.all(inFlight);
    expect(limit.spentUsd).toBeCloseTo(3 * CALL);
    for (const run of runs) await expect(run.create(REQUEST)).rejects.toBeInstanceOf(SpendLimitReached);
    expect(limit.spentUsd).toBeCloseTo(3 * CALL);
  });

  it('charges a streamed call from its message_start and message_delta usage', async () => {
    const limit = new SpendLimit(1);
    const model = new SpendLimitedModel({ name: 'm', create: async () => structuredClone(reply) }, limit);
    for await (const _ of model.stream(REQUEST)) {
      // drained
    }
    expect(limit.spentUsd).toBeCloseTo(CALL);
  });
});
