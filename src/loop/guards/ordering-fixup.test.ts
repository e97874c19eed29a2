import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import { fixMessageOrder, orderingFixup } from './ordering-fixup.js';

const OFFERED = new Set(['get_user', 'write_result']);
const use = (id: string, name = 'get_user') => ({ type: 'tool_use' as const, id, name, input: {} });
const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: '{}' });
const text = (value: string) => ({ type: 'text' as const, text: value });

describe('fixMessageOrder', () => {
  it('leaves a well-ordered transcript as it is', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [text('fetching'), use('a')] },
      { role: 'user', content: [result('a'), text('note')] },
    ];
    const fix = fixMessageOrder(messages, OFFERED);
    expect(fix).toMatchObject({ merged: 0, droppedResults: 0, strippedCalls: 0 });
    expect(fix.messages).toEqual([
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [text('fetching'), use('a')] },
      { role: 'user', content: [result('a'), text('note')] },
    ]);
  });

  it('merges consecutive same-role messages, drops orphan results, strips unanswered calls, then merges again', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'user', content: [text('and hurry')] },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: [result('a'), result('zz'), result('a')] },
      // Cut off mid-turn: its call was never answered, so the message empties and goes.
      { role: 'assistant', content: [use('b', 'write_result')] },
      { role: 'user', content: 'resumed' },
    ];
    const fix = fixMessageOrder(messages, OFFERED);
    expect(fix.messages).toEqual([
      { role: 'user', content: [text('go'), text('and hurry')] },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: [result('a'), text('resumed')] },
    ]);
    expect(fix).toMatchObject({ droppedResults: 2, strippedCalls: 1 });
    expect(fix.merged).toBeGreaterThanOrEqual(3);
  });

  it('moves results before other blocks, strips calls of tools not offered, and lets the user speak first', () => {
    const messages: MessageParam[] = [
      { role: 'assistant', content: [text('left over'), use('x')] },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a'), use('c', 'delete_everything')] },
      { role: 'user', content: [text('here:'), result('a'), result('c')] },
    ];
    const fix = fixMessageOrder(messages, OFFERED);
    expect(fix.messages).toEqual([
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: [result('a'), text('here:')] },
    ]);
  });

  it('never edits the messages it was given', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: [text('go')] },
      { role: 'user', content: [text('again')] },
      { role: 'assistant', content: [use('a')] },
    ];
    const copy = structuredClone(messages);
    fixMessageOrder(messages, OFFERED);
    expect(messages).toEqual(copy);
  });
});

describe('orderingFixup', () => {
  const TOOLS: Tool[] = [
    { name: 'get_user', input_schema: { type: 'object' } },
    { name: 'write_result', input_schema: { type: 'object' } },
  ];
  const broken: MessageParam[] = [
    { role: 'user', content: 'earlier task' },
    { role: 'assistant', content: [use('old_1')] },
    { role: 'user', content: [result('old_1'), result('old_0')] },
    { role: 'assistant', content: [use('old_2', 'write_result')] },
  ];

  it('repairs a resumed history before the first call, once: the loop adopts it and only appends after', async () => {
    const model = new ScriptedModel([
      { calls: [{ name: 'get_user', input: {} }] },
      { calls: [{ name: 'get_user', input: { id: 2 } }] },
      { text: 'done' },
    ]);
    const events: AgentEvent[] = [];
    const history = structuredClone(broken);
    const run = await new BudgetedAgentLoop({
      model,
      tools: recordingHost(TOOLS),
      guards: [orderingFixup()],
      history,
      onEvent: (event) => events.push(event),
    }).run('continue');

    expect(run.outcome.kind).toBe('completed');
    expect(events.filter((event) => event.type === 'agent.messages.fixed')).toEqual([
      { type: 'agent.messages.fixed', at: 0, merged: 2, droppedResults: 1, strippedCalls: 1 },
    ]);
    expect(model.requests[0]!.messages).toEqual([
      { role: 'user', content: [text('earlier task')] },
      { role: 'assistant', content: [use('old_1')] },
      { role: 'user', content: [result('old_1'), text('continue')] },
    ]);
    expect(model.requests[2]!.messages.slice(0, 3)).toEqual(model.requests[0]!.messages);
    expect(history).toEqual(broken);
  });

  it('without it, the same history goes out as it is', async () => {
    const model = new ScriptedModel([{ text: 'done' }]);
    await new BudgetedAgentLoop({ model, tools: recordingHost(TOOLS), history: structuredClone(broken) }).run(
      'continue',
    );
    expect(model.requests[0]!.messages).toHaveLength(5);
  });
});
