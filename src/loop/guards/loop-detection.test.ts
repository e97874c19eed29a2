import type { MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import type { ToolHost } from '../tool-host.js';
import { findThrash, loopDetection, type RecentCall } from './loop-detection.js';
import { STUCK_TOOL_NAME, stuckTool } from './stuck-tool.js';

const SEARCH: Tool = { name: 'search', input_schema: { type: 'object' } };
const ORDERS: Tool = { name: 'orders', input_schema: { type: 'object' } };
/** search finds nothing (`{"results":[]}`); orders answers. */
function host(): ToolHost {
  const inner = recordingHost([SEARCH, ORDERS]);
  return {
    ...inner,
    execute: (name, input) =>
      name === 'search'
        ? { kind: 'ok', content: '{"results":[]}', latencyMs: 100, fault: null }
        : inner.execute(name, input),
  };
}

const search = (query: string): ScriptedTurn => ({ calls: [{ name: 'search', input: { query } }] });
const call = (name: string, input: Record<string, unknown>, fruitless = true): RecentCall => ({
  call: { type: 'tool_use', id: 'x', name, input, caller: { type: 'direct' } } as ToolUseBlock,
  fruitless,
});

const lastUserText = (messages: readonly MessageParam[]): string => {
  const last = messages.at(-1);
  if (last === undefined || typeof last.content === 'string') return String(last?.content ?? '');
  return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
};

async function run(turns: ScriptedTurn[], guards = [loopDetection()]) {
  const model = new ScriptedModel(turns);
  const events: AgentEvent[] = [];
  const result = await new BudgetedAgentLoop({
    model,
    tools: host(),
    guards,
    onEvent: (event) => events.push(event),
  }).run('find it');
  const detections = events.filter((event) => event.type === 'agent.loop.detected');
  return { model, result, detections };
}

describe('findThrash', () => {
  it('finds the same call three times in the window (identical), before pattern thrash', () => {
    const calls = [
      call('search', { q: 'a' }),
      call('orders', {}),
      call('search', { q: 'a' }),
      call('search', { q: 'a' }),
    ];
    expect(findThrash(calls, 3, 4)).toEqual({ kind: 'identical', tool: 'search', count: 3, window: 4 });
  });

  it('finds one tool four times with differing arguments (pattern), and reads key order as the same call', () => {
    const calls = [
      call('search', { q: 'a' }),
      call('search', { q: 'b' }),
      call('orders', {}),
      call('search', { q: 'c' }),
      call('search', { q: 'd' }),
    ];
    expect(findThrash(calls, 3, 4)).toEqual({ kind: 'pattern', tool: 'search', count: 4, window: 5 });
    const reordered = [call('search', { a: 1, b: 2 }), call('search', { b: 2, a: 1 }), call('search', { a: 1, b: 2 })];
    expect(findThrash(reordered, 3, 4)?.kind).toBe('identical');
  });

  it('does not count one tool with differing arguments as thrash when the calls bring results back', () => {
    const reads = ['src_01', 'src_02', 'src_03', 'src_04', 'src_05'].map((id) => call('read_source', { id }, false));
    expect(findThrash(reads, 3, 4)).toBeNull();
    expect(
      findThrash([...reads.slice(0, 2), ...['a', 'b', 'c', 'd'].map((q) => call('search', { q }))], 3, 4)?.tool,
    ).toBe('search');
  });

  it('lets healthy work through: two identical calls, or three of one tool', () => {
    expect(findThrash([call('search', { q: 'a' }), call('search', { q: 'a' }), call('orders', {})], 3, 4)).toBeNull();
    expect(
      findThrash(
        [call('search', { q: 'a' }), call('search', { q: 'b' }), call('search', { q: 'c' }), call('orders', {})],
        3,
        4,
      ),
    ).toBeNull();
  });
});

describe('loopDetection', () => {
  it('climbs the ladder: a nudge, then a directive, then a forced request_human_help that ends the run escalated', async () => {
    const turns = [
      ...['a', 'b', 'c', 'd'].map(search), // pattern thrash: nudge after call 4
      ...['e', 'f', 'g', 'h'].map(search), // ignored: directive after call 8
      ...['i', 'j', 'k', 'l'].map(search), // ignored again: forced call after call 12
      { calls: [{ name: STUCK_TOOL_NAME, input: { summary: 's', attempted_approaches: [], specific_question: 'q' } }] },
      { text: 'never sent' },
    ];
    const { model, result, detections } = await run(turns);

    expect(
      detections.map((event) => event.type === 'agent.loop.detected' && [event.kind, event.tier, event.level]),
    ).toEqual([
      ['pattern', 1, 'nudge'],
      ['pattern', 2, 'directive'],
      ['pattern', 3, 'forced'],
    ]);
    expect(lastUserText(model.requests[4]!.messages)).toContain('try a different tool or a different approach');
    expect(lastUserText(model.requests[8]!.messages)).toContain('Stop calling search');
    // The forced turn: tool_choice names the stuck tool, which is offered for that turn only.
    const forced = model.requests[12]!;
    expect(forced.tool_choice).toEqual({ type: 'tool', name: STUCK_TOOL_NAME });
    expect((forced.tools ?? []).map((tool) => ('name' in tool ? tool.name : ''))).toEqual([
      'search',
      'orders',
      STUCK_TOOL_NAME,
    ]);
    expect((model.requests[11]!.tools ?? []).map((tool) => ('name' in tool ? tool.name : ''))).toEqual([
      'search',
      'orders',
    ]);
    expect(result.outcome.kind).toBe('escalated');
    expect(model.requests).toHaveLength(13);
  });

  it('needs fresh evidence after each intervention: calls from before it do not count again', async () => {
    // Identical thrash at call 3 (nudge); then two more identical calls: with the old
    // ones that would be five, but only two are new, so no second rung.
    const turns = [
      search('a'),
      search('a'),
      search('a'),
      search('a'),
      search('a'),
      { calls: [{ name: 'orders', input: {} }] },
      { text: 'done' },
    ];
    const { result, detections } = await run(turns);

    expect(detections).toHaveLength(1);
    expect(detections[0]).toMatchObject({ kind: 'identical', tool: 'search', tier: 1, level: 'nudge' });
    expect(result.outcome.kind).toBe('completed');
  });

  it('stays silent on work that progresses, and looks at no more than the window', async () => {
    // Four searches in the run, but never four of them within a window of four calls.
    const turns = [
      search('a'),
      search('b'),
      search('c'),
      { calls: [{ name: 'orders', input: {} }] },
      { calls: [{ name: 'orders', input: { id: 1 } }] },
      { calls: [{ name: 'orders', input: { id: 2 } }] },
      search('d'),
      { text: 'done' },
    ];
    const { result, detections } = await run(turns, [loopDetection({ window: 4 })]);

    expect(detections).toEqual([]);
    expect(result.outcome.kind).toBe('completed');
  });

  it('leaves the stuck tool to the stuck guard when the arm has one (offered once, escalation counted once)', async () => {
    const turns = [
      ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].map(search),
      { calls: [{ name: STUCK_TOOL_NAME, input: { summary: 's', attempted_approaches: [], specific_question: 'q' } }] },
    ];
    const model = new ScriptedModel(turns);
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({
      model,
      tools: host(),
      guards: [stuckTool(), loopDetection()],
      onEvent: (event) => events.push(event),
    }).run('go');

    expect(
      (model.requests[12]!.tools ?? []).filter((tool) => 'name' in tool && tool.name === STUCK_TOOL_NAME),
    ).toHaveLength(1);
    expect(events.filter((event) => event.type === 'agent.guardrail.escalated')).toHaveLength(1);
    expect(result.outcome.kind).toBe('escalated');
  });
});
