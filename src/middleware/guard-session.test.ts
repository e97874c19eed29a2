import { APIError, AuthenticationError } from '@anthropic-ai/sdk/core/error';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../loop/events.js';
import { REFLECTION_MESSAGE } from '../loop/guards/repeat-fingerprint.js';
import { STUCK_TOOL_NAME } from '../loop/guards/stuck-tool.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ToolError } from '../tools/tool-error.js';
import { createGuardSession, type GuardSessionOptions } from './guard-session.js';
import { wallClock } from './wall-clock.js';

const OK: ToolExecution = { kind: 'ok', content: '{"id":"u_1"}', latencyMs: 0, fault: null };
const TIMEOUT: ToolExecution = {
  kind: 'error',
  error: new ToolError('timeout', 'get_user timed out'),
  latencyMs: 0,
  fault: 'timeout',
};

/** A session on a virtual clock, with its events. */
function session(guards: GuardSessionOptions['guards'], extra: Partial<GuardSessionOptions> = {}) {
  let now = 0;
  const events: AgentEvent[] = [];
  const made = createGuardSession({
    guards,
    clock: { now: () => now, sleep: (ms) => void (now += ms) },
    onEvent: (event) => events.push(event),
    toolTraits: (name) => ({ sideEffecting: name.startsWith('write_'), concurrencySafe: false }),
    ...extra,
  });
  made.open([{ role: 'user', content: 'Fetch u_1 and write it.' }]);
  return { session: made, events, now: () => now };
}

let ids = 0;
const call = (name: string, input: unknown = { id: 'u_1' }) => ({ id: `call_${++ids}`, name, input });
const reply = (...calls: ReturnType<typeof call>[]): ContentBlockParam[] => [
  { type: 'text', text: 'Working.' },
  ...calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input })),
];
/** One model turn through the session, answered with `content`. */
const turn = (s: ReturnType<typeof session>['session'], content: ContentBlockParam[]) =>
  s.callModel(
    async () => content,
    (answered) => ({ content: answered }),
  );

describe('GuardSession', () => {
  it("takes the budget's final turn: no tools, the budget's words, and ends budget_exhausted", async () => {
    const { session: s, events } = session({ toolBudget: { maxToolCalls: 2 } });
    expect(s.nextTurn()).toMatchObject({ kind: 'call', toolChoice: 'auto', append: [], finalTurn: false });
    const a = call('get_user');
    const b = call('get_user', { id: 'u_2' });
    await turn(s, reply(a, b));
    await s.toolCall(a, () => OK);
    await s.toolCall(b, () => OK);
    const plan = s.nextTurn();
    expect(plan).toMatchObject({ kind: 'call', toolChoice: 'none', finalTurn: true });
    expect(plan.kind === 'call' && plan.append[0]).toMatch(/^Tool budget exhausted \(2 calls\)/);
    expect(s.nextTurn()).toBe(plan); // asked twice before the call: decided once
    await turn(s, [{ type: 'text', text: 'Here is what I have.' }]);
    expect(s.nextTurn()).toMatchObject({ kind: 'stop', outcome: { kind: 'budget_exhausted' } });
    expect(s.outcome({ kind: 'completed', finalText: 'x' })).toEqual({
      kind: 'budget_exhausted',
      finalText: 'Here is what I have.',
      toolCalls: 2,
    });
    expect(events.map((e) => e.type)).toEqual(['agent.budget.exhausted']);
  });

  it('answers a repeated call with the reflection message without running it', async () => {
    const { session: s, events } = session('article');
    const first = call('get_user');
    await turn(s, reply(first));
    await s.toolCall(first, () => OK);
    s.nextTurn();
    const again = call('get_user');
    await turn(s, reply(again));
    let ran = 0;
    const answer = await s.toolCall(again, () => {
      ran += 1;
      return OK;
    });
    expect(answer).toEqual({ kind: 'answer', content: REFLECTION_MESSAGE, isError: true });
    expect(ran).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['agent.repeat.blocked']);
  });

  it('retries a transient failure of a read-only tool, charging the backoff to the clock, and words what is left', async () => {
    const { session: s, events, now } = session({ errorClassification: true });
    const read = call('get_user');
    await turn(s, reply(read));
    const answers = [TIMEOUT, TIMEOUT, OK];
    const answer = await s.toolCall(read, () => answers.shift()!);
    expect(answer).toEqual({ kind: 'executed', execution: OK, wording: null });
    expect(now()).toBe(1000 + 2000);
    expect(events.filter((e) => e.type === 'agent.tool.retry').map((e) => e.delayMs)).toEqual([1000, 2000]);

    const write = call('write_user', { id: 'u_1' });
    s.nextTurn();
    await turn(s, reply(write));
    let runs = 0;
    const failed = await s.toolCall(write, () => {
      runs += 1;
      return TIMEOUT;
    });
    expect(runs).toBe(1); // a write is never retried automatically
    expect(failed).toMatchObject({
      kind: 'executed',
      wording:
        'Error: Network timeout: get_user timed out. The operation may have been applied; check before retrying.',
    });
  });

  it('pays owed waits before the retry when the clock really waits', async () => {
    const paid: number[] = [];
    let owed = 0;
    const { session: s } = session(
      { errorClassification: { backoffMs: [250] } },
      {
        clock: {
          now: () => 0,
          sleep: (ms) => void (owed += ms),
          settle: () => {
            if (owed === 0) return undefined;
            paid.push(owed);
            owed = 0;
            return Promise.resolve();
          },
        },
      },
    );
    const read = call('get_user');
    await turn(s, reply(read));
    const answers = [TIMEOUT, OK];
    await s.toolCall(read, () => {
      expect(owed).toBe(0); // every execution starts with nothing owed
      return answers.shift()!;
    });
    expect(paid).toEqual([250]);
  });

  it('ends the run escalated when the stuck tool is called, running nothing after it', async () => {
    const { session: s, events } = session('article');
    expect(s.tools.map((tool) => tool.name)).toEqual([STUCK_TOOL_NAME]);
    const help = call(STUCK_TOOL_NAME, { summary: 's', attempted_approaches: [], specific_question: 'q' });
    const after = call('get_user');
    await turn(s, reply(help, after));
    const answer = await s.toolCall(help, () => OK);
    expect(answer).toMatchObject({ kind: 'stop', outcome: { kind: 'escalated', payload: help.input } });
    let ran = 0;
    expect(await s.toolCall(after, () => (ran++, OK))).toMatchObject({ kind: 'stop' });
    expect(ran).toBe(0);
    expect(s.nextTurn()).toMatchObject({ kind: 'stop', outcome: { kind: 'escalated' } });
    expect(s.outcome({ kind: 'completed', finalText: '' }).kind).toBe('escalated');
    expect(events.map((e) => e.type)).toEqual(['agent.guardrail.escalated']);
  });

  it('retries a rate-limited model call after its retry-after, and stops at once on an auth error', async () => {
    const { session: s, events, now } = session({ llmRecovery: true });
    const limited = APIError.generate(
      429,
      { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      undefined,
      new Headers({ 'retry-after': '7' }),
    );
    const models: string[] = [];
    const outcome = await s.callModel(
      async (model) => {
        models.push(model);
        if (models.length === 1) throw limited;
        return 'the reply';
      },
      () => ({ content: [{ type: 'text', text: 'done' }] }),
    );
    expect(outcome).toEqual({ kind: 'reply', reply: 'the reply' });
    expect(now()).toBe(7000);
    expect(events.map((e) => e.type)).toEqual(['agent.model.retry']);

    const auth = APIError.generate(
      401,
      { type: 'error', error: { type: 'authentication_error', message: 'bad key' } },
      undefined,
      new Headers(),
    );
    expect(auth).toBeInstanceOf(AuthenticationError);
    const stopped = await s.callModel(
      async () => {
        throw auth;
      },
      () => ({ content: [] }),
    );
    expect(stopped).toMatchObject({ kind: 'stop', outcome: { kind: 'failed' } });
    expect(s.nextTurn()).toMatchObject({ kind: 'stop', outcome: { kind: 'failed' } });
  });

  it('hands an error it cannot recover back to the framework', async () => {
    const { session: s } = session({ llmRecovery: true });
    const bug = new TypeError('bad request shape');
    expect(
      await s.callModel(
        async () => {
          throw bug;
        },
        () => ({ content: [] }),
      ),
    ).toEqual({ kind: 'error', error: bug });
  });

  it('climbs the loop-detection ladder: a nudge kept in the transcript, then a directive, then a forced stuck call', async () => {
    const { session: s, events } = session({ loopDetection: true });
    expect(s.tools.map((tool) => tool.name)).toEqual([STUCK_TOOL_NAME]);
    const plans = [];
    for (let i = 0; i < 12; i++) {
      const plan = s.nextTurn();
      plans.push(plan);
      const c = call('search', { q: `try ${i}` });
      await turn(s, reply(c));
      await s.toolCall(c, () => ({ kind: 'ok', content: '{"results":[]}', latencyMs: 0, fault: null }));
    }
    const words = plans.flatMap((plan) => (plan.kind === 'call' ? plan.append : []));
    expect(words.map((w) => w.split(':')[0])).toEqual(['Loop check', 'Stop calling search']);
    const forced = s.nextTurn();
    expect(forced).toMatchObject({ kind: 'call', toolChoice: { type: 'tool', name: STUCK_TOOL_NAME } });
    expect(forced.kind === 'call' && forced.guardTools).toContain(STUCK_TOOL_NAME);
    expect(events.filter((e) => e.type === 'agent.loop.detected').map((e) => e.tier)).toEqual([1, 2, 3]);
    // The nudge stays where our loop puts it: after the results of the batch it judged.
    const nudged = s.messages.find(
      (m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'text' && b.text.startsWith('Loop check')),
    );
    expect(nudged?.role).toBe('user');
  });

  it('refuses a guard no framework can host, and an unknown option', () => {
    expect(() => createGuardSession({ guards: [{ name: 'compact' }] })).toThrow(/cannot run as middleware/);
    expect(() => createGuardSession({ guards: { toolBudgett: true } as never })).toThrow(/unknown safeguard option/);
    expect(() => createGuardSession({ guards: 'ablation' as never })).toThrow(/unknown safeguard preset/);
  });
});

describe('GuardSession with a framework that throws its own errors', () => {
  it("reads a status-bearing error as the SDK's class, and rethrows the framework's own when recovery gives up", async () => {
    const { session: s, events } = session({ llmRecovery: { maxRetries: 1, fallbackModel: null } });
    const overloaded = Object.assign(new Error('Overloaded'), {
      name: 'AI_APICallError',
      statusCode: 529,
      responseHeaders: {},
      responseBody: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    const outcome = await s.callModel(
      async () => {
        throw overloaded;
      },
      () => ({ content: [] }),
    );
    expect(events.map((e) => e.type)).toEqual(['agent.model.retry']);
    expect(outcome).toMatchObject({ kind: 'stop', outcome: { kind: 'failed' } });
    expect(outcome.kind === 'stop' && outcome.outcome.kind === 'failed' && outcome.outcome.reason).toMatch(
      /OverloadedError \(HTTP 529/,
    );
  });
});

describe('GuardSession cancellation', () => {
  it('never retries once the run is aborted, ends a wait owed at once, and calls the failure a cancellation', async () => {
    const controller = new AbortController();
    // A wall clock whose waits end only by the abort: no real timer.
    const clock = wallClock(
      (_ms, signal) =>
        new Promise<void>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const { session: s, events } = session(
      { errorClassification: { backoffMs: [1000] } },
      { clock, signal: controller.signal },
    );
    const a = call('get_user');
    await turn(s, reply(a));
    let runs = 0;
    const answer = s.toolCall(a, () => {
      runs += 1;
      return TIMEOUT;
    });
    // The first attempt timed out; the retry's backoff is being waited for. The user cancels.
    await Promise.resolve();
    controller.abort();
    const done = await answer;
    expect(runs).toBe(1);
    expect(events.map((event) => event.type)).toEqual(['agent.tool.retry']);
    expect(done).toMatchObject({ kind: 'executed', execution: { kind: 'error', error: { code: 'cancelled' } } });
    // A later call is not run, and a model call rethrows the abort instead of being recovered.
    const b = call('get_user', { id: 'u_2' });
    expect(await s.toolCall(b, () => ((runs += 1), OK))).toMatchObject({ execution: { error: { code: 'cancelled' } } });
    expect(runs).toBe(1);
    await expect(turn(s, reply())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads a tool failure after the abort as a cancellation, not a transient failure to retry', async () => {
    const controller = new AbortController();
    const { session: s, events } = session({ errorClassification: { backoffMs: [0] } });
    const a = call('get_user');
    await turn(s, reply(a));
    let runs = 0;
    const answer = await s.toolCall({ ...a, signal: controller.signal }, async () => {
      runs += 1;
      controller.abort();
      return TIMEOUT;
    });
    expect(runs).toBe(1);
    expect(events).toEqual([]);
    expect(answer).toMatchObject({ execution: { error: { code: 'cancelled', retryable: false } } });
  });
});

describe('GuardSession tool calls started together', () => {
  it('runs them one after another, as docs/middleware.md says: the second starts once the first is done', async () => {
    const { session: s } = session({ toolBudget: { maxToolCalls: 5 } });
    const a = call('get_user');
    const b = call('get_user', { id: 'u_2' });
    await turn(s, reply(a, b));
    const started: string[] = [];
    let finishA: (execution: ToolExecution) => void = () => {};
    const first = s.toolCall(a, () => {
      started.push('a');
      return new Promise<ToolExecution>((resolve) => (finishA = resolve));
    });
    const second = s.toolCall(b, () => (started.push('b'), OK));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(started).toEqual(['a']);
    finishA(OK);
    await Promise.all([first, second]);
    expect(started).toEqual(['a', 'b']);
  });
});

describe('GuardSession jitter in production', () => {
  it('gives each wall-clock session its own jitter, so processes failing together do not retry in step', async () => {
    const firstWaits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const waited: number[] = [];
      const s = createGuardSession({
        guards: { llmRecovery: { maxRetries: 1, fallbackModel: null } },
        clock: wallClock(async (ms) => void waited.push(ms)),
      });
      s.open([{ role: 'user', content: 'hi' }]);
      const overloaded = Object.assign(new Error('Overloaded'), { name: 'AI_APICallError', statusCode: 529 });
      let calls = 0;
      await s.callModel(
        async () => {
          calls += 1;
          if (calls === 1) throw overloaded;
          return [{ type: 'text' as const, text: 'ok' }];
        },
        (content) => ({ content }),
      );
      firstWaits.push(waited[0]!);
    }
    expect(new Set(firstWaits).size).toBeGreaterThan(1);
  });
});
