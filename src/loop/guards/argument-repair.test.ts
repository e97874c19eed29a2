import type { Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { RunResult } from '../outcome.js';
import type { ToolHost } from '../tool-host.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import {
  argumentRepair,
  firstBalancedBlock,
  repairArguments,
  stripFences,
  stripTrailingCommas,
} from './argument-repair.js';

describe('repairArguments, strategy by strategy', () => {
  it('direct: valid JSON is read as is', () => {
    expect(repairArguments('{"user_id":"u_1042"}')).toEqual({
      ok: true,
      value: { user_id: 'u_1042' },
      strategy: 'direct',
    });
  });

  it('double_encoded: a JSON string holding the object', () => {
    expect(repairArguments(JSON.stringify('{"a":1}'))).toEqual({
      ok: true,
      value: { a: 1 },
      strategy: 'double_encoded',
    });
  });

  it('strip_fences: the inside of a ```json fence, and of an unlabelled one', () => {
    expect(repairArguments('```json\n{"user_id": "u_1042"}\n```')).toEqual({
      ok: true,
      value: { user_id: 'u_1042' },
      strategy: 'strip_fences',
    });
    expect(repairArguments('```\n{"a": [1, 2]}\n```')).toEqual({
      ok: true,
      value: { a: [1, 2] },
      strategy: 'strip_fences',
    });
  });

  it('balanced_block: prose before and after the object', () => {
    const raw =
      'Sure! Here are the arguments: {"key": "u_1042", "value": {"n": 1}} Let me know if you need anything else.';
    expect(repairArguments(raw)).toEqual({
      ok: true,
      value: { key: 'u_1042', value: { n: 1 } },
      strategy: 'balanced_block',
    });
  });

  it('balanced_block: braces and escaped quotes inside strings do not end the block', () => {
    const raw = 'Arguments: {"text": "a } b { c \\" } d", "n": 2} — done {"other": 1}';
    expect(repairArguments(raw)).toEqual({
      ok: true,
      value: { text: 'a } b { c " } d', n: 2 },
      strategy: 'balanced_block',
    });
  });

  it('trailing_commas: commas before } and ], at any depth, outside strings only', () => {
    const raw = '{"a": [1, 2,], "b": {"c": "x,}",},}';
    expect(repairArguments(raw)).toEqual({
      ok: true,
      value: { a: [1, 2], b: { c: 'x,}' } },
      strategy: 'trailing_commas',
    });
  });

  it('trailing_commas inside a fence with prose: each strategy narrows the text for the next', () => {
    const raw = 'I will call it like this:\n```json\nThe call: {"user_id": "u_1042",}\n```';
    expect(repairArguments(raw)).toEqual({ ok: true, value: { user_id: 'u_1042' }, strategy: 'trailing_commas' });
  });

  it('jsonrepair: single quotes and Python literals', () => {
    expect(repairArguments("{'user_id': 'u_1042', 'active': True, 'note': None}")).toEqual({
      ok: true,
      value: { user_id: 'u_1042', active: true, note: null },
      strategy: 'jsonrepair',
    });
  });

  it('refuses cut-off JSON instead of completing it with a value the model never wrote', () => {
    const parse = repairArguments('{"key": "u_1042", "value": {"display_name": "Ada Lov');
    expect(parse).toEqual({ ok: false, reason: 'the JSON is cut off: 2 bracket(s) never closed' });
  });

  it('completes cut-off JSON only when told to', () => {
    expect(repairArguments('{"key": "u_10', { repairTruncated: true })).toEqual({
      ok: true,
      value: { key: 'u_10' },
      strategy: 'jsonrepair',
    });
    expect(repairArguments('Calling it: {"key": "u_10', { repairTruncated: true })).toEqual({
      ok: true,
      value: { key: 'u_10' },
      strategy: 'jsonrepair',
    });
  });

  it('fails on text that is no object at all, and on JSON that is not an object', () => {
    expect(repairArguments('I could not decide on the arguments.').ok).toBe(false);
    expect(repairArguments('[1, 2]')).toEqual({ ok: false, reason: 'the arguments are JSON but not an object' });
    expect(repairArguments('42')).toEqual({ ok: false, reason: 'the arguments are JSON but not an object' });
  });
});

describe('the text helpers', () => {
  it('stripFences returns null without a fence and runs an unclosed fence to the end', () => {
    expect(stripFences('{"a":1}')).toBeNull();
    expect(stripFences('```json\n{"a":1}')).toBe('{"a":1}');
  });

  it('firstBalancedBlock tells a cut-off object from no object', () => {
    expect(firstBalancedBlock('no braces')).toEqual({ kind: 'none' });
    expect(firstBalancedBlock('{"a": {"b": "}"')).toEqual({ kind: 'unclosed', depth: 2 });
    expect(firstBalancedBlock("{'a': '}'} tail")).toEqual({ kind: 'found', text: "{'a': '}'}" });
  });

  it('stripTrailingCommas keeps commas inside strings and between values', () => {
    expect(stripTrailingCommas('{"a": "1,]", "b": 2 ,\n}')).toBe('{"a": "1,]", "b": 2 \n}');
  });
});

const TOOLS: Tool[] = [{ name: 'write_result', input_schema: { type: 'object' } }];

function writingHost(): ToolHost & { readonly written: Record<string, unknown>[] } {
  const written: Record<string, unknown>[] = [];
  return {
    definitions: TOOLS,
    written,
    traits: () => ({ sideEffecting: true, concurrencySafe: false }),
    execute(_name, input): ToolExecution {
      written.push(input);
      return { kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null };
    },
  };
}

function results(result: RunResult): ToolResultBlockParam[] {
  return result.messages.flatMap((message) =>
    message.role === 'user' && typeof message.content !== 'string'
      ? message.content.filter((block): block is ToolResultBlockParam => block.type === 'tool_result')
      : [],
  );
}

describe('argumentRepair in the loop, against the scripted model', () => {
  const fenced = '```json\n{"key": "u_1042", "value": {"n": 1}}\n```';
  const run = async (withRepair: boolean, input: string) => {
    const host = writingHost();
    const events: AgentEvent[] = [];
    const model = new ScriptedModel([{ calls: [{ name: 'write_result', input }] }, { text: 'done' }]);
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      guards: withRepair ? [argumentRepair()] : [],
      onEvent: (event) => events.push(event),
    }).run('go');
    return { host, events, result };
  };

  it('runs a fenced call with the repaired object and logs the strategy', async () => {
    const { host, events, result } = await run(true, fenced);
    expect(host.written).toEqual([{ key: 'u_1042', value: { n: 1 } }]);
    expect(results(result)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_script_0_0', content: '{"ok":true}' }]);
    expect(events.filter((event) => event.type === 'agent.tool.arguments')).toEqual([
      { type: 'agent.tool.arguments', at: expect.any(Number), tool: 'write_result', strategy: 'strip_fences' },
    ]);
  });

  it('without it, the same call is not run (never with {}) and the model is told why', async () => {
    const { host, events, result } = await run(false, fenced);
    expect(host.written).toEqual([]);
    const [block] = results(result);
    expect(block?.is_error).toBe(true);
    expect(block?.content).toMatch(
      /^Error: the arguments of this write_result call are not valid JSON \([\s\S]+\)\. The call was not run\. Send the call again/,
    );
    expect(
      events
        .filter((event) => event.type === 'agent.tool.arguments')
        .map((event) => (event as { strategy: string }).strategy),
    ).toEqual(['failed']);
  });

  it('with it, cut-off arguments still become an error result, not a guessed write', async () => {
    const { host, result } = await run(true, '{"key": "u_1042", "value": {"n": 1');
    expect(host.written).toEqual([]);
    expect(results(result)[0]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('the JSON is cut off: 2 bracket(s) never closed'),
    });
  });

  it('keeps what the model wrote in the transcript: the raw text, not the parsed object', async () => {
    const { result } = await run(true, fenced);
    const assistant = result.messages[1];
    expect(assistant?.role).toBe('assistant');
    expect(typeof assistant?.content === 'string' ? null : assistant?.content[0]).toMatchObject({
      type: 'tool_use',
      input: fenced,
    });
  });
});
