import type { MessageParam, Tool, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { RunResult } from '../outcome.js';
import type { ToolHost } from '../tool-host.js';
import { callFingerprint, REFLECTION_MESSAGE, repeatFingerprint } from './repeat-fingerprint.js';

const DEFINITIONS: Tool[] = ['lookup', 'other', 'write', 'send'].map((name) => ({
  name,
  input_schema: { type: 'object' },
}));
/** `write` and `send` change the world; `lookup` and `other` only read it. */
const WRITERS: ReadonlySet<string> = new Set(['write', 'send']);

function countingHost(): ToolHost & { readonly executed: Array<{ name: string; input: Record<string, unknown> }> } {
  const executed: Array<{ name: string; input: Record<string, unknown> }> = [];
  return {
    definitions: DEFINITIONS,
    executed,
    traits: (name) =>
      WRITERS.has(name)
        ? { sideEffecting: true, concurrencySafe: false }
        : { sideEffecting: false, concurrencySafe: true },
    execute(name, input): ToolExecution {
      executed.push({ name, input });
      return { kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null };
    },
  };
}

const call = (name: string, input: Record<string, unknown>): ScriptedTurn => ({ calls: [{ name, input }] });

/** Every tool_result the model was sent, in order. */
function toolResults(result: RunResult): ToolResultBlockParam[] {
  return result.messages.flatMap((message) =>
    message.role === 'user' && typeof message.content !== 'string'
      ? message.content.filter((block): block is ToolResultBlockParam => block.type === 'tool_result')
      : [],
  );
}

describe('callFingerprint', () => {
  it('does not depend on key order, at any depth', () => {
    expect(callFingerprint('lookup', { a: 1, b: 2 })).toBe(callFingerprint('lookup', { b: 2, a: 1 }));
    expect(callFingerprint('lookup', { o: { x: 1, y: [1, { p: 1, q: 2 }] } })).toBe(
      callFingerprint('lookup', { o: { y: [1, { q: 2, p: 1 }], x: 1 } }),
    );
  });

  it('is a sha256 hex digest that differs by tool name or by argument value', () => {
    const base = callFingerprint('lookup', { a: 1, b: 2 });
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(callFingerprint('other', { a: 1, b: 2 })).not.toBe(base);
    expect(callFingerprint('lookup', { a: 1, b: 3 })).not.toBe(base);
    expect(callFingerprint('lookup', { a: 1, b: '2' })).not.toBe(base);
    expect(callFingerprint('lookup', { a: 1 })).not.toBe(base);
  });
});

describe('repeatFingerprint', () => {
  it('answers a call identical to the previous one with the reflection message instead of executing it', async () => {
    const model = new ScriptedModel([call('lookup', { a: 1, b: 2 }), call('lookup', { b: 2, a: 1 }), { text: 'done' }]);
    const host = countingHost();
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [repeatFingerprint({ window: 2 })],
      onEvent: (e) => events.push(e),
    }).run('go');

    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'done' });
    expect(host.executed).toHaveLength(1);
    expect(result.metrics.toolCalls).toBe(2);
    expect(result.metrics.toolExecutions).toBe(1);
    const second = toolResults(result)[1];
    expect(second).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_script_1_0',
      content: REFLECTION_MESSAGE,
      is_error: true,
    });
    expect(events.filter((e) => e.type === 'agent.repeat.blocked')).toEqual([
      {
        type: 'agent.repeat.blocked',
        at: expect.any(Number),
        tool: 'lookup',
        fingerprint: callFingerprint('lookup', { a: 1, b: 2 }),
      },
    ]);
  });

  it("by default follows the article's rule, twice in a row: a call identical to the one two calls back runs", async () => {
    const model = new ScriptedModel([
      call('lookup', { a: 1 }),
      call('other', { a: 1 }),
      call('lookup', { a: 1 }),
      { text: 'done' },
    ]);
    const host = countingHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint()] }).run('go');

    expect(host.executed.map((e) => e.name)).toEqual(['lookup', 'other', 'lookup']);
    expect(toolResults(result).every((block) => block.is_error !== true)).toBe(true);
  });

  it('blocks a call identical to the one two calls back with window 2', async () => {
    const model = new ScriptedModel([
      call('lookup', { a: 1 }),
      call('other', { a: 1 }),
      call('lookup', { a: 1 }),
      { text: 'done' },
    ]);
    const host = countingHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint({ window: 2 })] }).run(
      'go',
    );

    expect(host.executed.map((e) => e.name)).toEqual(['lookup', 'other']);
    const results = toolResults(result);
    expect(results.map((block) => block.is_error === true)).toEqual([false, false, true]);
    expect(results[2]?.content).toBe(REFLECTION_MESSAGE);
  });

  it('executes a call identical to one three calls back: it has left the window of 2', async () => {
    const model = new ScriptedModel([
      call('lookup', { a: 1 }),
      call('lookup', { a: 2 }),
      call('lookup', { a: 3 }),
      call('lookup', { a: 1 }),
      { text: 'done' },
    ]);
    const host = countingHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint({ window: 2 })] }).run(
      'go',
    );

    expect(host.executed.map((e) => e.input)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }, { a: 1 }]);
    expect(toolResults(result).map((block) => block.content)).toEqual([
      '{"ok":true}',
      '{"ok":true}',
      '{"ok":true}',
      '{"ok":true}',
    ]);
  });

  it('lets a write run again after a read between the two: checking the world, then rewriting, whatever the window', async () => {
    for (const window of [1, 2, 5]) {
      const model = new ScriptedModel([
        call('write', { key: 'k', value: 1 }),
        call('lookup', { key: 'k' }),
        call('write', { key: 'k', value: 1 }),
        { text: 'done' },
      ]);
      const host = countingHost();
      const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint({ window })] }).run(
        'go',
      );
      expect(host.executed.map((e) => e.name)).toEqual(['write', 'lookup', 'write']);
      expect(toolResults(result).every((block) => block.is_error !== true)).toBe(true);
    }
  });

  it('still blocks a write repeated with only other writes between, and a read repeated with a read between', async () => {
    const model = new ScriptedModel([
      call('write', { key: 'k', value: 1 }),
      call('send', { to: 'x' }),
      call('write', { key: 'k', value: 1 }),
      call('lookup', { a: 1 }),
      call('other', { a: 1 }),
      call('lookup', { a: 1 }),
      { text: 'done' },
    ]);
    const host = countingHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint({ window: 2 })] }).run(
      'go',
    );
    expect(host.executed.map((e) => e.name)).toEqual(['write', 'send', 'lookup', 'other']);
    expect(toolResults(result).map((block) => block.is_error === true)).toEqual([
      false,
      false,
      true,
      false,
      false,
      true,
    ]);
  });

  it('compares calls within one turn as well as across turns', async () => {
    const model = new ScriptedModel([
      {
        calls: [
          { name: 'lookup', input: { a: 1 } },
          { name: 'lookup', input: { a: 1 } },
        ],
      },
      { text: 'done' },
    ]);
    const host = countingHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint()] }).run('go');

    expect(host.executed).toHaveLength(1);
    expect(toolResults(result).map((block) => [block.tool_use_id, block.is_error === true])).toEqual([
      ['toolu_script_0_0', false],
      ['toolu_script_0_1', true],
    ]);
  });

  it('reads the last calls from the transcript, so a fresh guard (a resumed run) still knows them', async () => {
    const history = [
      { role: 'user' as const, content: 'look it up' },
      {
        role: 'assistant' as const,
        content: [{ type: 'tool_use' as const, id: 'toolu_before_crash', name: 'lookup', input: { q: 1 } }],
      },
      {
        role: 'user' as const,
        content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_before_crash', content: '{"ok":true}' }],
      },
    ];
    const host = countingHost();
    const result = await new BudgetedAgentLoop({
      model: new ScriptedModel([call('lookup', { q: 1 }), { text: 'done' }]),
      tools: host,
      guards: [repeatFingerprint()],
      history,
    }).run('go on');
    expect(host.executed).toEqual([]);
    expect(toolResults(result).at(-1)?.content).toBe(REFLECTION_MESSAGE);
  });

  it('compares arguments sent as text as they were read, with calls before and after them', async () => {
    // The transcript keeps the text; the guard remembers what it was read as.
    const model = new ScriptedModel([
      { calls: [{ name: 'lookup', input: '{"b": 2, "a": 1}' }] },
      call('other', { x: 1 }),
      { calls: [{ name: 'lookup', input: { a: 1, b: 2 } }] },
      { calls: [{ name: 'lookup', input: '{"a":1,"b":2}' }] },
      { text: 'done' },
    ]);
    const host = countingHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [repeatFingerprint({ window: 2 })] }).run(
      'go',
    );
    expect(host.executed.map((entry) => entry.name)).toEqual(['lookup', 'other']);
    expect(toolResults(result).map((block) => block.is_error === true)).toEqual([false, false, true, true]);
  });
});

describe('repeatFingerprint compares inputs as the calls texts would', () => {
  /** Puts `inputs` to a fresh guard as calls of `lookup`, one turn each; whether each was blocked. */
  function blocked(inputs: unknown[]): boolean[] {
    const guard = repeatFingerprint({ window: 2 });
    const messages: MessageParam[] = [];
    return inputs.map((input, i) => {
      const block = { type: 'tool_use', id: `c${i}`, name: 'lookup', input } as ToolUseBlock;
      messages.push({ role: 'assistant', content: [block] });
      const ctx = {
        clock: new VirtualClock(),
        emit: () => {},
        toolCalls: i,
        toolExecutions: i,
        toolTraits: () => undefined,
        iteration: i,
        messages,
      };
      const decision = guard.beforeToolCall!(block, ctx);
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: 'ok' }] });
      return decision !== undefined;
    });
  }

  it('tells an undefined input from a null one (the call text leaves an undefined input out)', () => {
    expect(blocked([undefined, null, undefined])).toEqual([false, false, true]);
    expect(blocked([null, null])).toEqual([false, true]);
  });

  it('blocks the same object sent again and an equal one in another key order, not a different one', () => {
    const record = Object.freeze({ id: 'u_1', tags: Object.freeze(['a', 'b']) });
    expect(blocked([record, record])).toEqual([false, true]);
    expect(
      blocked([
        { a: 1, b: { c: 2, d: 3 } },
        { b: { d: 3, c: 2 }, a: 1 },
      ]),
    ).toEqual([false, true]);
    expect(blocked([record, { ...record, tags: ['a', 'c'] }])).toEqual([false, false]);
  });
});
