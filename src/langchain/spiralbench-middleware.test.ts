import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { REFLECTION_MESSAGE } from '../loop/guards/repeat-fingerprint.js';
import type { AgentEvent } from '../loop/events.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { ToolError } from '../tools/tool-error.js';
import { spiralbenchMiddleware, type SpiralbenchMiddlewareOptions } from './spiralbench-middleware.js';
import {
  call,
  lastUserText,
  say,
  type ScriptedAnswer,
  scriptedChat,
  toolResults,
} from './scripted-anthropic.test-helpers.js';

const schema = { type: 'object' as const, properties: { id: { type: 'string' as const } }, required: ['id'] };

/** get_user, answering from `answers` in turn (an Error is thrown), counting its executions. */
function getUser(answers: ReadonlyArray<string | Error> = []) {
  const seen: unknown[] = [];
  const fn = tool(
    async (input: unknown) => {
      seen.push(input);
      const answer = answers[seen.length - 1] ?? JSON.stringify({ id: (input as { id: string }).id, name: 'Ada' });
      if (answer instanceof Error) throw answer;
      return answer;
    },
    { name: 'get_user', description: 'Fetch a user', schema },
  );
  return { fn, seen };
}

async function runAgent(
  script: readonly ScriptedAnswer[],
  guards: SpiralbenchMiddlewareOptions['guards'],
  answers: ReadonlyArray<string | Error> = [],
) {
  const { model, requests } = scriptedChat(script);
  const user = getUser(answers);
  const events: AgentEvent[] = [];
  const clock = new VirtualClock();
  const agent = createAgent({
    model,
    tools: [user.fn],
    middleware: [
      spiralbenchMiddleware({
        guards,
        toolTraits: () => ({ sideEffecting: false, concurrencySafe: true }),
        clock: { now: () => clock.now(), sleep: (ms) => clock.sleep(ms) },
        onEvent: (event) => events.push(event),
      }),
    ],
  });
  const state = await agent.invoke({ messages: [{ role: 'user', content: 'Fetch user u_1.' }] });
  return {
    state: state as typeof state & { spiralbench?: { kind: string } },
    requests,
    seen: user.seen,
    events,
    clock,
  };
}

describe('spiralbenchMiddleware', () => {
  it('ends the run with the budget’s final turn: no tools, the budget message, then budget_exhausted', async () => {
    const { state, requests, seen } = await runAgent(
      [call('get_user', { id: 'u_1' }, 't1'), call('get_user', { id: 'u_2' }, 't2'), say('Here is what I found.')],
      { toolBudget: { maxToolCalls: 2 } },
    );
    expect(seen).toHaveLength(2);
    expect(requests).toHaveLength(3);
    expect(requests[2]!.tool_choice).toEqual({ type: 'none' });
    expect(lastUserText(requests[2]!)).toMatch(/^Tool budget exhausted \(2 calls\)/);
    expect(requests[1]!.tool_choice).toBeUndefined();
    expect(state.spiralbench).toMatchObject({
      kind: 'budget_exhausted',
      finalText: 'Here is what I found.',
      toolCalls: 2,
    });
  });

  it('answers a repeated call with the reflection, without running it', async () => {
    const { state, requests, seen, events } = await runAgent(
      [call('get_user', { id: 'u_1' }, 't1'), call('get_user', { id: 'u_1' }, 't2'), say('done')],
      { repeatFingerprint: true },
    );
    expect(seen).toHaveLength(1);
    const reflected = toolResults(requests[2]!).find((block) => block.tool_use_id === 't2');
    // ChatAnthropic sends a ToolMessage's error status as words only: no is_error on the wire.
    expect(reflected).toMatchObject({ content: REFLECTION_MESSAGE });
    expect(events.filter((event) => event.type === 'agent.repeat.blocked')).toHaveLength(1);
    expect(state.spiralbench).toMatchObject({ kind: 'completed' });
  });

  it('retries a transient failure of a read-only tool with backoff on the run’s clock, and words a permanent one', async () => {
    const timeout = new ToolError('timeout', 'get_user timed out');
    const missing = new ToolError('not_found', 'no user u_2');
    const { requests, seen, events, clock } = await runAgent(
      [call('get_user', { id: 'u_1' }, 't1'), call('get_user', { id: 'u_2' }, 't2'), say('done')],
      { errorClassification: true },
      [timeout, '{"id":"u_1"}', missing],
    );
    expect(seen).toHaveLength(3);
    expect(events.filter((event) => event.type === 'agent.tool.retry')).toHaveLength(1);
    expect(clock.now()).toBe(1000);
    const results = toolResults(requests[2]!);
    expect(results[0]).toMatchObject({ tool_use_id: 't1', content: '{"id":"u_1"}' });
    expect(results[0]!.is_error).toBeUndefined();
    expect(results[1]).toMatchObject({ tool_use_id: 't2' });
    expect(String(results[1]!.content)).toMatch(
      /^Error: Permanent failure: Not found \(HTTP 404\): no user u_2\. Do not retry/,
    );
  });

  it('takes a plain-text tool answer as a success, and retries a cut-off JSON body', async () => {
    const { requests, seen, events } = await runAgent(
      [call('get_user', { id: 'u_1' }, 't1'), call('get_user', { id: 'u_2' }, 't2'), say('done')],
      { errorClassification: true },
      ['User u_1 is Ada.', '{"id":"u_2","na', '{"id":"u_2"}'],
    );
    expect(seen).toHaveLength(3);
    expect(events.filter((event) => event.type === 'agent.tool.retry')).toHaveLength(1);
    const results = toolResults(requests[2]!);
    expect(results[0]).toMatchObject({ tool_use_id: 't1', content: 'User u_1 is Ada.' });
    expect(results[1]).toMatchObject({ tool_use_id: 't2', content: '{"id":"u_2"}' });
  });

  it('stops retrying at the invocation’s signal: a failure after the abort is a cancellation', async () => {
    const { model } = scriptedChat([call('get_user', { id: 'u_1' }, 't1'), say('done')]);
    const controller = new AbortController();
    let runs = 0;
    const getUserAborting = tool(
      async () => {
        runs += 1;
        controller.abort();
        throw new ToolError('timeout', 'get_user timed out');
      },
      { name: 'get_user', description: 'Fetch a user', schema },
    );
    const events: AgentEvent[] = [];
    const clock = new VirtualClock();
    const agent = createAgent({
      model,
      tools: [getUserAborting],
      middleware: [
        spiralbenchMiddleware({
          guards: { errorClassification: true },
          toolTraits: () => ({ sideEffecting: false, concurrencySafe: true }),
          clock: { now: () => clock.now(), sleep: (ms) => clock.sleep(ms) },
          onEvent: (event) => events.push(event),
        }),
      ],
    });
    await expect(
      agent.invoke({ messages: [{ role: 'user', content: 'Fetch user u_1.' }] }, { signal: controller.signal }),
    ).rejects.toThrow();
    expect(runs).toBe(1);
    expect(events.filter((event) => event.type === 'agent.tool.retry')).toEqual([]);
    expect(clock.now()).toBe(0);
  });

  it('keeps LangChain’s own wording of a tool failure when no guard words it', async () => {
    const { requests } = await runAgent(
      [call('get_user', { id: 'u_1' }, 't1'), say('done')],
      { repeatFingerprint: true },
      [new Error('boom')],
    );
    expect(toolResults(requests[1]!)[0]).toMatchObject({ content: 'Error: boom\n Please fix your mistakes.' });
  });

  it('ends the run escalated with the payload when the model calls request_human_help', async () => {
    const payload = {
      summary: 'get_user keeps failing',
      attempted_approaches: ['retry'],
      specific_question: 'Is u_1 real?',
    };
    const { state, requests, seen, events } = await runAgent(
      [call('request_human_help', payload, 'h1'), say('never sent')],
      {
        stuckTool: true,
      },
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]!.tools?.map((offered) => offered.name)).toEqual(['get_user', 'request_human_help']);
    expect(seen).toHaveLength(0);
    expect(state.spiralbench).toEqual({ kind: 'escalated', payload });
    expect(state.messages.at(-1)).toBeInstanceOf(ToolMessage);
    expect(events.map((event) => event.type)).toContain('agent.guardrail.escalated');
  });

  it('recovers a failed model call: retries after an overload, with the wait on the run’s clock', async () => {
    const { state, requests, events, clock } = await runAgent(
      [{ status: 529, type: 'overloaded_error' }, say('hello')],
      { llmRecovery: { jitter: 0, fallbackModel: null } },
    );
    expect(requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'agent.model.retry')).toMatchObject([
      { attempt: 1, delayMs: 1000, errorClass: 'OverloadedError', status: 529 },
    ]);
    expect(clock.now()).toBe(1000);
    expect(state.spiralbench).toMatchObject({ kind: 'completed', finalText: 'hello' });
  });

  it('honours retry-after on a rate limit, and rethrows LangChain’s own error once retries run out', async () => {
    const limited = { status: 429, type: 'rate_limit_error', headers: { 'retry-after': '7' } } as const;
    const { model } = scriptedChat([limited, limited]);
    const clock = new VirtualClock();
    const agent = createAgent({
      model,
      tools: [getUser().fn],
      middleware: [
        spiralbenchMiddleware({
          guards: { llmRecovery: { maxRetries: 1, fallbackModel: null } },
          clock: { now: () => clock.now(), sleep: (ms) => clock.sleep(ms) },
        }),
      ],
    });
    await expect(agent.invoke({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/rate_limit_error/);
    expect(clock.now()).toBe(7000);
  });

  it('climbs the loop-detection ladder: a nudge after the results, a directive, then request_human_help forced', async () => {
    const same = (id: string) => call('get_user', { id: 'u_1' }, id);
    const payload = { summary: 's', attempted_approaches: [], specific_question: 'q' };
    const { state, requests } = await runAgent(
      [
        same('a1'),
        same('a2'),
        same('a3'),
        same('a4'),
        same('a5'),
        same('a6'),
        call('request_human_help', payload, 'h'),
      ],
      { loopDetection: { identical: 2 } },
      ['{"error":"x"}'],
    );
    expect(lastUserText(requests[2]!)).toMatch(/^Loop check: 2 of your last 2 tool calls went to get_user/);
    expect(lastUserText(requests[4]!)).toMatch(/^Stop calling get_user/);
    // The nudge stays where it was said, in every later request.
    expect(JSON.stringify(requests[4]!.messages)).toContain('Loop check: 2 of your last 2');
    expect(requests[6]!.tool_choice).toEqual({ type: 'tool', name: 'request_human_help' });
    expect(requests[5]!.tools?.map((offered) => offered.name)).toEqual(['get_user']);
    expect(requests[6]!.tools?.map((offered) => offered.name)).toEqual(['get_user', 'request_human_help']);
    expect(state.spiralbench).toMatchObject({ kind: 'escalated' });
  });

  it('builds fresh guards for each invocation of one agent', async () => {
    const { model, requests } = scriptedChat([
      call('get_user', { id: 'u_1' }, 't1'),
      say('a'),
      call('get_user', { id: 'u_1' }, 't2'),
      say('b'),
    ]);
    const agent = createAgent({
      model,
      tools: [getUser().fn],
      middleware: [spiralbenchMiddleware({ guards: { toolBudget: { maxToolCalls: 1 } } })],
    });
    const first = await agent.invoke({ messages: [{ role: 'user', content: 'one' }] });
    const second = await agent.invoke({ messages: [{ role: 'user', content: 'two' }] });
    expect(requests[1]!.tool_choice).toEqual({ type: 'none' });
    expect(requests[3]!.tool_choice).toEqual({ type: 'none' });
    expect((first as { spiralbench?: unknown }).spiralbench).toMatchObject({
      kind: 'budget_exhausted',
      finalText: 'a',
    });
    expect((second as { spiralbench?: unknown }).spiralbench).toMatchObject({
      kind: 'budget_exhausted',
      finalText: 'b',
    });
  });

  it('ends the run at the iteration budget without another model call', async () => {
    const { state, requests } = await runAgent(
      [call('get_user', { id: 'u_1' }, 't1'), call('get_user', { id: 'u_2' }, 't2'), say('never sent')],
      { iterationBudget: { initial: 2, cap: 2 } },
    );
    expect(requests).toHaveLength(2);
    expect(state.spiralbench).toEqual({ kind: 'max_iterations', iterations: 2 });
  });

  it('answers the journal’s tools itself and shows its digest after the agent’s own system prompt', async () => {
    const { model, requests } = scriptedChat([
      call('update_run_journal', { objective: 'export u_1' }, 'j1'),
      say('done'),
    ]);
    const agent = createAgent({
      model,
      tools: [getUser().fn],
      systemPrompt: 'You are careful.',
      middleware: [spiralbenchMiddleware({ guards: { runJournal: true } })],
    });
    await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
    expect(toolResults(requests[1]!)[0]).toMatchObject({ tool_use_id: 'j1', content: 'Journal updated.' });
    const system = JSON.stringify((requests[1] as unknown as { system: unknown }).system);
    expect(system).toMatch(/^\[?.*You are careful\./);
    expect(system).toContain('export u_1');
    expect(JSON.stringify((requests[0] as unknown as { system: unknown }).system)).not.toContain('export u_1');
  });

  it('leaves arguments that fail the tool’s schema to LangChain, which answers them as it does without us', async () => {
    const { requests, seen } = await runAgent([call('get_user', { name: 'no id' }, 't1'), say('done')], {
      errorClassification: true,
    });
    expect(seen).toHaveLength(0);
    const answer = String(toolResults(requests[1]!)[0]!.content);
    expect(answer).toMatch(/^Error invoking tool 'get_user' with .*did not match expected schema/s);
    expect(answer).not.toMatch(/Permanent failure/);
  });
});
