import { APIError, RateLimitError } from '@anthropic-ai/sdk/core/error';
import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../model-client.js';
import { type BatchApi, type BatchEntry, type BatchResultLine, BatchingModel } from './batching-model.js';

const request = (text: string): ModelRequest => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 10,
  messages: [{ role: 'user', content: text }],
});
const message = (text: string) => ({ id: text, content: [{ type: 'text', text }] }) as unknown as Message;

/** A Batches API in memory: each request answered by `answer`, every batch ended at the first look. */
function fakeApi(answer: (params: ModelRequest) => BatchResultLine['result']) {
  const created: string[][] = [];
  const stored = new Map<string, BatchResultLine[]>();
  const api: BatchApi = {
    async create(requests) {
      const id = `b${created.length}`;
      created.push(requests.map((entry) => entry.custom_id));
      stored.set(
        id,
        requests.map((entry) => ({ custom_id: entry.custom_id, result: answer(entry.params) })),
      );
      return { id };
    },
    retrieve: async () => ({ processing_status: 'ended' }),
    async results(id) {
      return (async function* () {
        yield* stored.get(id)!;
      })();
    },
  };
  return { api, created };
}

const echo = (params: ModelRequest): BatchResultLine['result'] => ({
  type: 'succeeded',
  message: message(String(params.messages[0]!.content)),
});

describe('BatchingModel', () => {
  it('sends the requests of every run that asked in the same turn as one batch, and gives each its reply', async () => {
    const { api, created } = fakeApi(echo);
    const recorded: BatchEntry[] = [];
    const model = new BatchingModel({ api, name: 'm', record: (entry) => recorded.push(entry), sleep: async () => {} });
    const replies = await Promise.all(['a', 'b', 'c'].map((run) => model.forRun(run).create(request(run))));
    expect(replies.map((reply) => reply.id)).toEqual(['a', 'b', 'c']);
    expect(created).toHaveLength(1);
    expect(recorded).toEqual([{ batch_id: 'b0', custom_ids: created[0] }]);
  });

  it('reads the replies of requests a crashed sweep sent from their batch, sending none again', async () => {
    const first = fakeApi(echo);
    const recorded: BatchEntry[] = [];
    const before = new BatchingModel({
      api: first.api,
      name: 'm',
      record: (entry) => recorded.push(entry),
      sleep: async () => {},
    });
    await before.forRun('run-1').create(request('x'));
    // The same run asks the same first question after the restart: its custom id is the one on record.
    const after = new BatchingModel({
      api: first.api,
      name: 'm',
      sent: recorded,
      record: () => {},
      sleep: async () => {},
    });
    expect((await after.forRun('run-1').create(request('x'))).id).toBe('x');
    expect(first.created).toHaveLength(1);
    // Another run, or another call, is a new request.
    await after.forRun('run-2').create(request('x'));
    expect(first.created).toHaveLength(2);
  });

  it('raises an errored request as the API error its type stands for, so recovery reads it as it would a direct call', async () => {
    const { api } = fakeApi(() => ({
      type: 'errored',
      error: { error: { type: 'rate_limit_error', message: 'slow down' } },
    }));
    const model = new BatchingModel({ api, name: 'm', record: () => {}, sleep: async () => {} });
    await expect(model.forRun('r').create(request('x'))).rejects.toBeInstanceOf(RateLimitError);
    const expired = new BatchingModel({
      api: fakeApi(() => ({ type: 'expired' })).api,
      name: 'm',
      record: () => {},
      sleep: async () => {},
    });
    const error = await expired
      .forRun('r')
      .create(request('x'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
  });

  it('reads a status again after a dropped connection or a 5xx, instead of failing (and so resending) every request', async () => {
    const { api, created } = fakeApi(echo);
    let failures = 2;
    const flaky: BatchApi = {
      ...api,
      retrieve: async (id) => {
        if (failures-- > 0)
          throw APIError.generate(
            503,
            { type: 'error', error: { type: 'api_error', message: 'x' } },
            undefined,
            new Headers(),
          );
        return api.retrieve(id);
      },
    };
    const model = new BatchingModel({ api: flaky, name: 'm', record: () => {}, sleep: async () => {} });
    expect((await model.forRun('r').create(request('x'))).id).toBe('x');
    expect(created).toHaveLength(1);
  });

  it('sends again, once, the requests of a batch on record that the API no longer knows', async () => {
    // A first process sends the run's request as batch 'gone', then dies before the results.
    const onRecord: BatchEntry[] = [];
    const dying = new BatchingModel({
      api: { ...fakeApi(echo).api, create: async () => ({ id: 'gone' }), retrieve: () => new Promise(() => {}) },
      name: 'm',
      record: (entry) => onRecord.push(entry),
      sleep: async () => {},
    });
    void dying.forRun('r').create(request('x'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(onRecord).toHaveLength(1);
    // Resumed against an API that does not know 'gone' (another key, or its results expired).
    const { api, created } = fakeApi(echo);
    const lost: string[] = [];
    const notFound = APIError.generate(
      404,
      { type: 'error', error: { type: 'not_found_error', message: 'no batch' } },
      undefined,
      new Headers(),
    );
    const resumed = new BatchingModel({
      api: { ...api, retrieve: async (id) => (id === 'gone' ? Promise.reject(notFound) : api.retrieve(id)) },
      name: 'm',
      sent: onRecord,
      record: () => {},
      sleep: async () => {},
      onLost: (id) => lost.push(id),
    });
    expect((await resumed.forRun('r').create(request('x'))).id).toBe('x');
    expect(lost).toEqual(['gone']);
    expect(created).toHaveLength(1);
  });
});
