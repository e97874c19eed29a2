import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk/core/error';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { modelFaultResponse, scriptedModelFaults, type ModelFaultKind } from '../../faults/model-faults.js';
import { FaultyModel, sdkError } from '../../model/faulty-model.js';
import { DEFAULT_MODEL_ID } from '../../model/model-client.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { stream, type StreamKey } from '../../random/streams.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { Guard } from '../guard.js';
import { classifyModelError, describeModelError } from '../model-errors.js';
import { modelLatencyMs } from '../model-latency.js';
import type { RunResult } from '../outcome.js';
import type { ToolHost } from '../tool-host.js';
import { llmRecovery, type LlmRecoveryOptions } from './llm-recovery.js';
import { CHEAP_MODEL_ID } from '../../model/model-table.js';

const X: Tool = { name: 'x', input_schema: { type: 'object' } };
const host: ToolHost = {
  definitions: [X],
  traits: (name) => (name === 'x' ? { sideEffecting: false, concurrencySafe: true } : undefined),
  execute: () => ({ kind: 'ok', content: '{"ok":true}', latencyMs: 0, fault: null }),
};
const KEY: StreamKey = { sweepSeed: 0, scenario: 'llm-recovery-test', runSeed: 5 };
const FALLBACK = CHEAP_MODEL_ID;
/** Call x, then answer: two model turns. */
const TWO_TURNS: ScriptedTurn[] = [{ text: 'Calling x.', calls: [{ name: 'x', input: {} }] }, { text: 'done' }];

interface Run {
  readonly result: RunResult;
  readonly events: AgentEvent[];
  /** Requests that reached the scripted model (the faulted ones never do). */
  readonly answered: ScriptedModel['requests'];
  /** Every request sent, faulted or not. */
  readonly sent: ReadonlyArray<{ readonly model: string }>;
  readonly clock: VirtualClock;
}

async function run(
  faults: readonly (ModelFaultKind | null)[],
  options: LlmRecoveryOptions | null = {},
  turns = TWO_TURNS,
  retryAfterMs = 10_000,
): Promise<Run> {
  const scripted = new ScriptedModel(turns);
  const source = scriptedModelFaults(faults, { retryAfterMs, timeoutMs: 600_000 });
  const clock = new VirtualClock();
  const events: AgentEvent[] = [];
  const guards: Guard[] = options === null ? [] : [llmRecovery({ streamKey: KEY, ...options })];
  const loop = new BudgetedAgentLoop({
    model: new FaultyModel(scripted, source),
    tools: host,
    guards,
    clock,
    onEvent: (e) => events.push(e),
  });
  const result = await loop.run('go');
  return { result, events, answered: scripted.requests, sent: source.requests, clock };
}

const retries = (events: readonly AgentEvent[]) => events.flatMap((e) => (e.type === 'agent.model.retry' ? [e] : []));
const fallbacks = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'agent.model.fallback' ? [e] : []));
/** The backoff the guard draws for its `index`-th retry of the run (0-based), base in ms. */
const jittered = (base: number, index: number) =>
  Math.round(base * (1 + 0.25 * (2 * stream(KEY, 'recover:jitter', index).next() - 1)));
/** Virtual time of the model calls that were answered. */
const modelTime = (events: readonly AgentEvent[]) =>
  events.reduce(
    (sum, e) =>
      sum +
      (e.type === 'agent.model.call'
        ? modelLatencyMs({ input_tokens: e.inputTokens, output_tokens: e.outputTokens })
        : 0),
    0,
  );

describe('classifyModelError', () => {
  const classOf = (kind: ModelFaultKind) =>
    classifyModelError(
      sdkError(
        modelFaultResponse(
          kind,
          { model: DEFAULT_MODEL_ID, messages: [] },
          { retryAfterMs: 1000, timeoutMs: 1000 },
          'req',
        ),
      ),
    );

  it("reads each injected fault by the SDK's own error class", () => {
    expect(classOf('unauthorized')).toBe('auth');
    expect(classOf('rate_limit')).toBe('rate_limit');
    for (const kind of ['server_error', 'overloaded', 'connection_error', 'timeout'] as const)
      expect(classOf(kind)).toBe('transient');
    expect(classOf('unknown_model')).toBe('unknown_model');
    expect(classOf('request_too_large')).toBe('too_large');
  });

  it('treats billing, permission and spend limits as auth, and everything unknown as other', () => {
    const generate = (status: number, type: string, errorCode?: string) =>
      APIError.generate(
        status,
        {
          type: 'error',
          error: { type, message: 'm', ...(errorCode === undefined ? {} : { details: { error_code: errorCode } }) },
        },
        undefined,
        new Headers(),
      );
    expect(classifyModelError(generate(402, 'billing_error'))).toBe('auth');
    expect(classifyModelError(generate(403, 'permission_error'))).toBe('auth');
    expect(classifyModelError(generate(400, 'billing_error'))).toBe('auth');
    expect(classifyModelError(generate(429, 'rate_limit_error', 'enforced_spend_limit_reached'))).toBe('auth');
    expect(classifyModelError(generate(503, 'api_error'))).toBe('transient');
    expect(classifyModelError(generate(400, 'invalid_request_error'))).toBe('other');
    expect(classifyModelError(new APIUserAbortError())).toBe('other');
    expect(classifyModelError(new Error('boom'))).toBe('other');
    expect(classifyModelError(new APIConnectionTimeoutError())).toBe('transient');
    expect(classifyModelError(new APIConnectionError({ message: undefined }))).toBe('transient');
  });
});

describe('llmRecovery', () => {
  it('retries a transient failure after seeded, jittered backoffs, without the model ever seeing it', async () => {
    const { result, events, answered, sent, clock } = await run(['overloaded', 'server_error', null]);

    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'done' });
    expect(
      retries(events).map(({ attempt, delayMs, errorClass, status, model }) => ({
        attempt,
        delayMs,
        errorClass,
        status,
        model,
      })),
    ).toEqual([
      { attempt: 1, delayMs: jittered(1000, 0), errorClass: 'OverloadedError', status: 529, model: DEFAULT_MODEL_ID },
      {
        attempt: 2,
        delayMs: jittered(2000, 1),
        errorClass: 'InternalServerError',
        status: 500,
        model: DEFAULT_MODEL_ID,
      },
    ]);
    expect(jittered(1000, 0)).toBeGreaterThanOrEqual(750);
    expect(jittered(1000, 0)).toBeLessThanOrEqual(1250);
    expect(jittered(2000, 1)).not.toBe(2000);
    // Four requests were sent; the model answered two, and saw the first one once.
    expect(sent).toHaveLength(4);
    expect(answered).toHaveLength(2);
    expect(answered[0]?.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(result.metrics).toMatchObject({ modelCalls: 2, modelRetries: 2 });
    // Time: the waits and the answered calls (scripted faults fail at once; injected ones take time, see model-faults).
    expect(clock.now()).toBe(jittered(1000, 0) + jittered(2000, 1) + modelTime(events));
  });

  it("waits what a rate limit's retry-after asks, capped at retryAfterCapMs", async () => {
    const asked = await run(['rate_limit', null], {}, TWO_TURNS, 10_000);
    expect(retries(asked.events).map((e) => e.delayMs)).toEqual([10_000]);
    const capped = await run(['rate_limit', 'rate_limit', null], { retryAfterCapMs: 60_000 }, TWO_TURNS, 120_000);
    expect(retries(capped.events).map((e) => [e.delayMs, e.errorClass, e.status])).toEqual([
      [60_000, 'RateLimitError', 429],
      [60_000, 'RateLimitError', 429],
    ]);
    expect(capped.result.outcome.kind).toBe('completed');
  });

  it('after maxRetries retries switches to the fallback model for good, with fresh retries', async () => {
    const { result, events, sent } = await run([
      'overloaded',
      'overloaded',
      'overloaded',
      'timeout',
      'connection_error',
      null,
      null,
    ]);

    expect(result.outcome.kind).toBe('completed');
    expect(retries(events).map((e) => [e.model, e.attempt, e.errorClass])).toEqual([
      [DEFAULT_MODEL_ID, 1, 'OverloadedError'],
      [DEFAULT_MODEL_ID, 2, 'OverloadedError'],
      [DEFAULT_MODEL_ID, 3, 'OverloadedError'],
      [FALLBACK, 1, 'APIConnectionError'],
    ]);
    expect(fallbacks(events)).toEqual([
      {
        type: 'agent.model.fallback',
        at: expect.any(Number),
        from: DEFAULT_MODEL_ID,
        to: FALLBACK,
        reason: '4 attempts: APIConnectionTimeoutError: Request timed out.',
      },
    ]);
    // The turn's 5th and 6th requests went to the fallback, and so did the next turn's.
    expect(sent.map((request) => request.model)).toEqual([
      DEFAULT_MODEL_ID,
      DEFAULT_MODEL_ID,
      DEFAULT_MODEL_ID,
      DEFAULT_MODEL_ID,
      FALLBACK,
      FALLBACK,
      FALLBACK,
    ]);
  });

  it('falls back at once for an unknown model', async () => {
    const { result, events, sent } = await run(['unknown_model', null, null]);
    expect(result.outcome.kind).toBe('completed');
    expect(retries(events)).toEqual([]);
    expect(fallbacks(events).map((e) => e.reason)).toEqual([
      'unknown model: NotFoundError (HTTP 404 not_found_error): model: claude-sonnet-5-5',
    ]);
    expect(sent.map((request) => request.model)).toEqual([DEFAULT_MODEL_ID, FALLBACK, FALLBACK]);
  });

  it('stops at once on an authentication error: failed, with the reason, no retry', async () => {
    const { result, events, sent } = await run(['unauthorized']);
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason:
        'model call failed, not retried (authentication, permission or billing): AuthenticationError (HTTP 401 authentication_error): invalid x-api-key',
    });
    expect(sent).toHaveLength(1);
    expect(retries(events)).toEqual([]);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['agent_run.failed', 'agent_run.completed']);
  });

  it('does not retry a request too large: it leaves the 413 to compaction outside it, or to the loop', async () => {
    const { result, sent } = await run(['request_too_large']);
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason:
        'model call failed: ContentTooLargeError (HTTP 413 request_too_large): Request exceeds the maximum allowed number of bytes.',
    });
    expect(sent).toHaveLength(1);
  });

  it('ends the run failed when the fallback fails too, carrying the conversation so far', async () => {
    const faults: ModelFaultKind[] = [
      ...Array<ModelFaultKind>(4).fill('overloaded'),
      ...Array<ModelFaultKind>(4).fill('server_error'),
    ];
    const { result, events, sent } = await run([null, ...faults]);

    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason: `model call failed after 4 attempts on ${FALLBACK}: InternalServerError (HTTP 500 api_error): Internal server error`,
    });
    expect(sent).toHaveLength(9);
    expect(retries(events)).toHaveLength(6);
    expect(fallbacks(events)).toHaveLength(1);
    // The first turn's call and its result are all there; nothing of the failed turn is.
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(events.find((e) => e.type === 'agent_run.failed')).toMatchObject({
      reason: expect.stringContaining('after 4 attempts'),
    });
  });

  it('without a fallback model gives up after maxRetries retries', async () => {
    const { result, sent } = await run(['overloaded', 'overloaded', 'overloaded'], {
      fallbackModel: null,
      maxRetries: 2,
    });
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason: `model call failed after 3 attempts on ${DEFAULT_MODEL_ID}: OverloadedError (HTTP 529 overloaded_error): Overloaded`,
    });
    expect(sent).toHaveLength(3);
  });

  it('leaves an invalid request to the loop: one attempt, failed with the API message', async () => {
    // max_tokens 0: a request the API refuses with a 400, which no retry would change.
    const model = new FaultyModel(new ScriptedModel(TWO_TURNS), scriptedModelFaults([]));
    const events: AgentEvent[] = [];
    const loop = new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [llmRecovery({ streamKey: KEY })],
      onEvent: (e) => events.push(e),
      maxTokens: 0,
    });
    const result = await loop.run('go');
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason:
        'model call failed: BadRequestError (HTTP 400 invalid_request_error): max_tokens: Input should be a positive integer',
    });
    expect(retries(events)).toEqual([]);
  });

  it('a cancellation while retrying ends the run cancelled', async () => {
    const controller = new AbortController();
    const guard = llmRecovery({ streamKey: KEY });
    const loop = new BudgetedAgentLoop({
      model: {
        name: 'aborting',
        create: () => (controller.abort('user pressed ctrl-c'), Promise.reject(new APIUserAbortError())),
      },
      tools: host,
      guards: [guard],
      signal: controller.signal,
    });
    expect((await loop.run('go')).outcome).toEqual({ kind: 'cancelled', reason: 'user pressed ctrl-c' });
  });

  it('draws the same jitter for the same run, and other jitter for another run', async () => {
    const delays = async (key: StreamKey) => {
      const scripted = new ScriptedModel(TWO_TURNS);
      const events: AgentEvent[] = [];
      await new BudgetedAgentLoop({
        model: new FaultyModel(scripted, scriptedModelFaults(['overloaded', 'overloaded', null])),
        tools: host,
        guards: [llmRecovery({ streamKey: key })],
        onEvent: (e) => events.push(e),
      }).run('go');
      return retries(events).map((e) => e.delayMs);
    };
    expect(await delays(KEY)).toEqual(await delays(KEY));
    expect(await delays({ ...KEY, runSeed: 6 })).not.toEqual(await delays(KEY));
  });
});

describe('without the recovery guard', () => {
  it('a model error ends the run failed, naming the error', async () => {
    const { result, events, sent } = await run([null, 'overloaded'], null);
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason: 'model call failed: OverloadedError (HTTP 529 overloaded_error): Overloaded',
    });
    expect(sent).toHaveLength(2);
    expect(events.filter((e) => e.type === 'agent_run.failed')).toHaveLength(1);
    expect(describeModelError(new APIConnectionTimeoutError())).toBe('APIConnectionTimeoutError: Request timed out.');
  });
});
