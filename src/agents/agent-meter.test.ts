import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.js';
import { ToolError } from '../tools/tool-error.js';
import type { AgentEvent } from '../loop/events.js';
import type { ToolHost } from '../loop/tool-host.js';
import { AgentMeter } from './agent-meter.js';

const host = (fail: boolean): ToolHost => ({
  definitions: [],
  traits: () => ({ sideEffecting: false, concurrencySafe: true }),
  execute: () =>
    fail
      ? {
          kind: 'error',
          error: new ToolError('timeout', 'get_user: request timed out after 30000 ms'),
          latencyMs: 30_000,
          fault: 'timeout',
        }
      : { kind: 'ok', content: '{"id":"u_1"}', latencyMs: 120, fault: null },
});

describe('AgentMeter', () => {
  it('runs a tool on the virtual clock and hands the framework its text', () => {
    const clock = new VirtualClock();
    const events: AgentEvent[] = [];
    const meter = new AgentMeter(clock, host(false), (event) => events.push(event));
    expect(meter.runTool('get_user', { user_id: 'u_1' })).toBe('{"id":"u_1"}');
    expect([clock.now(), meter.counts.toolExecutions, events.map((event) => event.type)]).toEqual([
      120,
      1,
      ['agent.tool.call', 'agent.tool.result'],
    ]);
  });

  it('throws a failure as a plain Error with the tool message, after charging its latency', () => {
    const clock = new VirtualClock();
    const meter = new AgentMeter(clock, host(true));
    let thrown: unknown;
    try {
      meter.runTool('get_user', {});
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown)).toBe('Error: get_user: request timed out after 30000 ms');
    expect(clock.now()).toBe(30_000);
  });

  it('counts answered calls, tool calls and tokens on the wire, in both API shapes, and skips errors', async () => {
    const clock = new VirtualClock();
    const meter = new AgentMeter(clock, host(false));
    const replies: Response[] = [
      new Response(
        JSON.stringify({
          model: 'claude-sonnet-5-5',
          content: [{ type: 'text' }, { type: 'tool_use' }, { type: 'tool_use' }],
          usage: { input_tokens: 1000, output_tokens: 50 },
        }),
        { status: 200 },
      ),
      new Response(
        JSON.stringify({
          model: 'x',
          choices: [{ message: { tool_calls: [{}] } }],
          usage: { prompt_tokens: 200, completion_tokens: 10 },
        }),
        { status: 200 },
      ),
      new Response(JSON.stringify({ type: 'error' }), { status: 529 }),
    ];
    const wire = meter.fetch(async () => replies.shift()!);
    for (let i = 0; i < 3; i++) await wire('http://simulated.invalid/v1/messages', { method: 'POST' });
    expect(meter.counts).toMatchObject({ modelCalls: 2, toolCalls: 3, inputTokens: 1200, outputTokens: 60 });
    // 400 + 0.05 per input token + 20 per output token, per answered call (model-latency.ts)
    expect(clock.now()).toBe(400 + 50 + 1000 + (400 + 10 + 200));
  });
});

describe('AgentMeter.conversation', () => {
  const reply =
    (body: unknown, status = 200) =>
    async () =>
      new Response(JSON.stringify(body), { status });
  const call = (fetch: typeof globalThis.fetch, body: unknown) =>
    fetch('http://simulated.invalid/v1/x', { method: 'POST', body: JSON.stringify(body) });

  it('is the last answered call’s messages and its reply, read off the wire (Messages API)', async () => {
    const meter = new AgentMeter(new VirtualClock(), host(false));
    expect(meter.conversation()).toBeUndefined();
    const messages = [
      { role: 'user', content: 'export u_1' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_user', input: { user_id: 'u_1' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"id":"u_1"}' }] },
    ];
    const answer = {
      model: 'm',
      content: [{ type: 'text', text: 'done' }],
      usage: { input_tokens: 9, output_tokens: 1 },
    };
    await call(meter.fetch(reply(answer)), { model: 'm', messages });
    // A refused call is no exchange: the conversation is still the last answered one.
    await call(meter.fetch(reply({ error: {} }, 529)), { model: 'm', messages: [] });
    expect(meter.conversation()).toEqual([...messages, { role: 'assistant', content: answer.content }]);
  });

  it('reads a Chat Completions exchange as the simulated model reads one', async () => {
    const meter = new AgentMeter(new VirtualClock(), host(false));
    const request = {
      model: 'm',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'export u_1' },
        // A reply's text and its tool calls sent back as two messages: one turn of the model's.
        { role: 'assistant', content: 'looking it up' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_user', arguments: '{"user_id":"u_1"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"id":"u_1"}' },
      ],
    };
    const answer = {
      id: 'x',
      model: 'm',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'done' } }],
      usage: { prompt_tokens: 9, completion_tokens: 1 },
    };
    await call(meter.fetch(reply(answer)), request);
    const conversation = meter.conversation()!;
    expect(conversation.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(conversation[1]!.content).toEqual([
      { type: 'text', text: 'looking it up' },
      { type: 'tool_use', id: 'c1', name: 'get_user', input: '{"user_id":"u_1"}' },
    ]);
    expect(conversation[3]!.content).toEqual([{ type: 'text', text: 'done', citations: null }]);
  });

  it('reads a message thread (only what is new is sent) back into the whole conversation, as the endpoint does', async () => {
    const meter = new AgentMeter(new VirtualClock(), host(false));
    const answer = (id: string, content: unknown[]) =>
      reply({ id, model: 'm', content, usage: { input_tokens: 1, output_tokens: 1 } });
    const use = { type: 'tool_use', id: 't1', name: 'get_user', input: {} };
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] };
    await call(meter.fetch(answer('r1', [use])), {
      model: 'm',
      system: 'be brief',
      messages: [{ role: 'user', content: 'export u_1' }],
      thread: { type: 'create' },
    });
    // However the client spaces its JSON.
    const spaced = (body: unknown) => JSON.stringify(body).replace('"thread":', '"thread" : ');
    await meter.fetch(answer('r2', [{ type: 'text', text: 'done' }]))('http://simulated.invalid/v1/x', {
      method: 'POST',
      body: spaced({ model: 'm', messages: [result], thread: { type: 'continue', previous_message_id: 'r1' } }),
    });
    expect(meter.conversation()).toEqual([
      { role: 'user', content: 'export u_1' },
      { role: 'assistant', content: [use] },
      result,
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ]);
    // A run that has ended keeps what it made of the bodies, not them.
    meter.release();
    expect(meter.conversation()).toBeUndefined();
  });
});
