import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ToolExecution } from '../tools/tool-execution.js';
import { scriptedModelFaults } from '../faults/model-faults.js';
import { FaultyModel } from '../model/faulty-model.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import { BudgetedAgentLoop, type LoopOptions } from './budgeted-agent-loop.js';
import type { AgentEvent } from './events.js';
import type { Guard } from './guard.js';
import { concurrency } from './guards/concurrency.js';
import { llmRecovery } from './guards/llm-recovery.js';
import type { TextStreamEvent } from './streamed-reply.js';
import type { ToolHost } from './tool-host.js';

const READ: Tool = { name: 'read', input_schema: { type: 'object' } };
const WRITE: Tool = { name: 'write', input_schema: { type: 'object' } };

/** `read` is concurrency-safe and takes 300 ms; `write` has a side effect and takes 200 ms. */
const host: ToolHost = {
  definitions: [READ, WRITE],
  traits: (name) =>
    name === 'read'
      ? { sideEffecting: false, concurrencySafe: true }
      : name === 'write'
        ? { sideEffecting: true, concurrencySafe: false }
        : undefined,
  execute: (name): ToolExecution => ({
    kind: 'ok',
    content: '{"ok":true}',
    latencyMs: name === 'read' ? 300 : 200,
    fault: null,
  }),
};

/**
 * Output tokens by the shared estimator (ceil(chars / 4) + framing): the text 'Looking' is
 * 2 + 2 = 4; read {"q":"a"} is ceil(('read' + '{"q":"a"}').length / 4) + 8 = 4 + 8 = 12, as
 * are b and c; write {"v":1} is ceil(11 / 4) + 8 = 11. The reply is 4 + 12 + 12 + 11 + 12 = 51
 * tokens: at 20 ms a token, read a's block ends 35 tokens (700 ms) before the reply does,
 * read b's 23 tokens (460 ms) before.
 */
const TURNS: ScriptedTurn[] = [
  {
    text: 'Looking',
    calls: [
      { name: 'read', input: { q: 'a' } },
      { name: 'read', input: { q: 'b' } },
      { name: 'write', input: { v: 1 } },
      { name: 'read', input: { q: 'c' } },
    ],
  },
  { text: 'All done.' },
];

async function run(options: Partial<LoopOptions> & { guards?: Guard[] }, turns = TURNS) {
  const events: AgentEvent[] = [];
  const result = await new BudgetedAgentLoop({
    model: new ScriptedModel(turns),
    tools: host,
    ...options,
    onEvent: (event) => events.push(event),
  }).run('go');
  const replyEnd = events.find((event) => event.type === 'agent.model.call')!.at;
  const starts = events.filter((event) => event.type === 'agent.tool.call').map((event) => event.at - replyEnd);
  const secondCall = events.filter((event) => event.type === 'agent.model.call')[1]?.at ?? Number.NaN;
  return { result, events, replyEnd, starts, secondCall };
}

describe('early tool starts on a streamed reply', () => {
  it('starts the leading reads as their blocks end; the write and the read after it wait for the reply', async () => {
    const plain = await run({});
    const streamed = await run({ stream: {} });
    expect(streamed.result.messages).toEqual(plain.result.messages);
    expect(streamed.replyEnd).toBe(plain.replyEnd);
    // Not streamed: one after the other from the end of the reply.
    expect(plain.starts).toEqual([0, 300, 600, 800]);
    // Streamed, serially: read a at -700 (ends -400); read b's block ends at -460 but waits
    // for a, -400 (ends -100); the write waits for the reply, 0; read c follows it, 200.
    expect(streamed.starts).toEqual([-700, -400, 0, 200]);
    expect(
      streamed.events
        .filter((event) => event.type === 'agent.tool.early_start')
        .map((event) => (event.type === 'agent.tool.early_start' ? [event.tool, event.leadMs] : null)),
    ).toEqual([
      ['read', 700],
      ['read', 400],
    ]);
    expect(streamed.secondCall - streamed.replyEnd).toBe(plain.secondCall - plain.replyEnd - 600);
    expect(plain.result.metrics.virtualMs - streamed.result.metrics.virtualMs).toBe(600);
  });

  it('with concurrency, each leading read starts at its own block end', async () => {
    const plain = await run({ guards: [concurrency()] });
    const streamed = await run({ guards: [concurrency()], stream: {} });
    // Not streamed: a and b together at 0 (to 300), the write at 300, c at 500.
    expect(plain.starts).toEqual([0, 0, 300, 500]);
    // Streamed: a at -700 (to -400), b at -460 (to -160); the reply ends at 0, so the write starts there.
    expect(streamed.starts).toEqual([-700, -460, 0, 200]);
    expect(plain.result.metrics.virtualMs - streamed.result.metrics.virtualMs).toBe(300);
  });

  it('starts nothing early when the reply opens with a write, or when early starts are off', async () => {
    const writeFirst: ScriptedTurn[] = [
      {
        text: 'Looking',
        calls: [
          { name: 'write', input: { v: 1 } },
          { name: 'read', input: { q: 'a' } },
        ],
      },
      { text: 'All done.' },
    ];
    const plain = await run({}, writeFirst);
    const streamed = await run({ stream: {} }, writeFirst);
    expect(streamed.starts).toEqual(plain.starts);
    expect(streamed.result.metrics.virtualMs).toBe(plain.result.metrics.virtualMs);
    const off = await run({ stream: { earlyToolStart: false } });
    expect(off.starts).toEqual([0, 300, 600, 800]);
  });

  it('passes the text to the caller as it streams', async () => {
    const text: TextStreamEvent[] = [];
    const { result } = await run({ stream: { onText: (event) => text.push(event) } }, [
      { text: 'The answer, streamed in pieces of twenty-four characters: 42.' },
    ]);
    expect(result.outcome).toEqual({
      kind: 'completed',
      finalText: 'The answer, streamed in pieces of twenty-four characters: 42.',
    });
    expect(text.length).toBe(3);
    expect(text.map((event) => (event.kind === 'delta' ? event.text : '|')).join('')).toBe(
      'The answer, streamed in pieces of twenty-four characters: 42.',
    );
  });
});

describe('a stream cut mid-reply', () => {
  // The cut attempt has read the scripted model's first reply; its retry is the second, the same reply again.
  const turns: ScriptedTurn[] = [TURNS[0]!, TURNS[0]!, TURNS[1]!];

  it('is retried by LLM-call recovery, and the text streamed before the cut is withdrawn', async () => {
    const events: AgentEvent[] = [];
    const text: TextStreamEvent[] = [];
    const model = new FaultyModel(new ScriptedModel(turns), scriptedModelFaults(['stream_cut', null, null]));
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [llmRecovery({ jitter: 0 })],
      stream: { onText: (event) => text.push(event) },
      onEvent: (event) => events.push(event),
    }).run('go');
    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'All done.' });
    const retries = events.filter((event) => event.type === 'agent.model.retry');
    expect(retries).toEqual([
      {
        type: 'agent.model.retry',
        at: 0,
        model: 'claude-sonnet-5-5',
        attempt: 1,
        delayMs: 1000,
        errorClass: 'APIError',
        status: null,
      },
    ]);
    expect(text.map((event) => event.kind)).toEqual(['delta', 'reset', 'delta', 'delta']);
    expect(result.metrics.modelCalls).toBe(2);
  });

  it('fails the run without recovery, naming the stream error', async () => {
    const model = new FaultyModel(new ScriptedModel(turns), scriptedModelFaults(['stream_cut']));
    const result = await new BudgetedAgentLoop({ model, tools: host, stream: {} }).run('go');
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason: 'model call failed: APIError (stream error overloaded_error): Overloaded',
    });
  });
});
