import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model-client.js';
import { requestProblem } from './request-validation.js';

const TOOLS: Tool[] = [
  { name: 'get_user', input_schema: { type: 'object' } },
  { name: 'write_result', input_schema: { type: 'object' } },
];
const use = (id: string, name = 'get_user') => ({ type: 'tool_use' as const, id, name, input: {} });
const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: '{}' });
const text = (value: string) => ({ type: 'text' as const, text: value });

const request = (messages: MessageParam[], extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  tools: TOOLS,
  messages,
  ...extra,
});

/** A valid agent transcript: a prompt, two tool calls in one turn and their results, a budget message after them. */
const VALID: MessageParam[] = [
  { role: 'user', content: 'Fetch u_1 and write it.' },
  { role: 'assistant', content: [text('Fetching.'), use('toolu_1'), use('toolu_2', 'write_result')] },
  { role: 'user', content: [result('toolu_1'), result('toolu_2'), text('Tool budget exhausted.')] },
];

describe('requestProblem', () => {
  it('accepts a well-formed agent transcript, a final assistant prefill, and split user turns the API combines', () => {
    expect(requestProblem(request(VALID))).toBeNull();
    expect(requestProblem(request([...VALID, { role: 'assistant', content: '' }]))).toBeNull();
    const split: MessageParam[] = [
      VALID[0]!,
      VALID[1]!,
      { role: 'user', content: [result('toolu_1')] },
      { role: 'user', content: [result('toolu_2')] },
    ];
    expect(requestProblem(request(split))).toBeNull();
  });

  it('needs a model, a positive max_tokens and at least one message, the first from the user', () => {
    expect(requestProblem(request(VALID, { model: '' }))).toBe('model: Field required');
    expect(requestProblem(request(VALID, { max_tokens: 0 }))).toMatch(/^max_tokens:/);
    expect(requestProblem(request([]))).toBe('messages: at least one message is required');
    expect(requestProblem(request([{ role: 'assistant', content: 'hi' }]))).toBe(
      'messages: first message must use the "user" role',
    );
  });

  it('refuses empty messages and empty text blocks', () => {
    expect(requestProblem(request([{ role: 'user', content: '' }]))).toMatch(
      /^messages\.0: all messages must have non-empty content/,
    );
    expect(requestProblem(request([{ role: 'user', content: [text('')] }]))).toBe(
      'messages.0.content.0.text: text content blocks must be non-empty',
    );
  });

  it('refuses a tool_result that answers no tool_use of the turn just before', () => {
    const orphan: MessageParam[] = [
      VALID[0]!,
      { role: 'assistant', content: [use('toolu_1')] },
      { role: 'user', content: [result('toolu_9')] },
    ];
    expect(requestProblem(request(orphan))).toMatch(
      /^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9\./,
    );
    // A result for a call two turns back does not count either.
    const stale: MessageParam[] = [
      ...VALID,
      { role: 'assistant', content: 'Done?' },
      { role: 'user', content: [result('toolu_1')] },
    ];
    expect(requestProblem(request(stale))).toMatch(/unexpected `tool_use_id`.*toolu_1/);
    // Nor does one answered twice.
    const twice: MessageParam[] = [
      VALID[0]!,
      { role: 'assistant', content: [use('toolu_1')] },
      { role: 'user', content: [result('toolu_1'), result('toolu_1')] },
    ];
    expect(requestProblem(request(twice))).toMatch(/^messages\.2\.content\.1: unexpected/);
  });

  it('refuses a tool_use left without its result in the next turn, or as the last message', () => {
    const missing: MessageParam[] = [
      VALID[0]!,
      { role: 'assistant', content: [use('toolu_1'), use('toolu_2')] },
      { role: 'user', content: [result('toolu_1')] },
    ];
    expect(requestProblem(request(missing))).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    expect(requestProblem(request([VALID[0]!, { role: 'assistant', content: [use('toolu_1')] }]))).toMatch(
      /^messages\.1: `tool_use` ids were found without/,
    );
  });

  it('wants tool results before any other block of their message', () => {
    const late: MessageParam[] = [
      VALID[0]!,
      { role: 'assistant', content: [use('toolu_1')] },
      { role: 'user', content: [text('here'), result('toolu_1')] },
    ];
    expect(requestProblem(request(late))).toBe(
      'messages.2.content.1: `tool_result` blocks must come first in the content of a user message, before any other block',
    );
  });

  it('checks tool names: unique, called only if offered, and a forced tool_choice among them', () => {
    expect(requestProblem(request(VALID, { tools: [...TOOLS, TOOLS[0]!] }))).toBe(
      "tools: Tool names must be unique: 'get_user'",
    );
    expect(requestProblem(request(VALID, { tools: [TOOLS[0]!] }))).toBe(
      "messages.1.content.2.name: tool 'write_result' is not one of the request's tools",
    );
    expect(requestProblem(request(VALID, { tool_choice: { type: 'tool', name: 'ask_human' } }))).toBe(
      "tool_choice.name: Tool 'ask_human' not found in tools",
    );
    expect(requestProblem(request([VALID[0]!], { tools: [], tool_choice: { type: 'any' } }))).toMatch(/^tool_choice:/);
    expect(requestProblem(request(VALID, { tool_choice: { type: 'none' } }))).toBeNull();
  });

  it('checks a live transcript as it grows, and again from the start when its history is rewritten', () => {
    const live: MessageParam[] = [VALID[0]!];
    expect(requestProblem(request(live))).toBeNull();
    live.push(VALID[1]!, VALID[2]!);
    expect(requestProblem(request(live))).toBeNull();
    // The last message replaced by a copy with a note (as the budget guard does): still checked.
    live[2] = { role: 'user', content: [text('note'), result('toolu_1'), result('toolu_2')] };
    expect(requestProblem(request(live))).toMatch(/must come first/);
    live[2] = VALID[2]!;
    live.push({ role: 'assistant', content: [use('toolu_3')] }, { role: 'user', content: [result('toolu_3')] });
    expect(requestProblem(request(live))).toBeNull();
    // An earlier message swapped for one whose call goes unanswered.
    live[1] = { role: 'assistant', content: [use('toolu_1'), use('toolu_2', 'write_result'), use('toolu_7')] };
    expect(requestProblem(request(live))).toMatch(
      /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_7\./,
    );
    // Fewer tools than before: the calls already checked are checked again.
    live[1] = VALID[1]!;
    expect(requestProblem(request(live, { tools: [TOOLS[0]!] }))).toMatch(
      /tool 'write_result' is not one of the request's tools/,
    );
  });

  it('refuses a live transcript again, the same way, after a problem in the part it had not checked yet', () => {
    const live: MessageParam[] = [VALID[0]!];
    expect(requestProblem(request(live))).toBeNull();
    // The bad turn is followed by more messages, so it is read as part of the prefix.
    live.push(
      { role: 'assistant', content: [use('toolu_1')] },
      { role: 'user', content: [result('toolu_1'), result('toolu_1')] },
      { role: 'assistant', content: [text('Done.')] },
    );
    const problem = /^messages\.2\.content\.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1\./;
    expect(requestProblem(request(live))).toMatch(problem);
    live.push({ role: 'user', content: 'And now?' });
    expect(requestProblem(request(live))).toMatch(problem);
  });

  it('keeps roles in their lanes', () => {
    expect(requestProblem(request([{ role: 'user', content: [use('toolu_1')] }]))).toBe(
      'messages.0.content.0: tool_use blocks may only appear in assistant messages',
    );
    expect(requestProblem(request([VALID[0]!, { role: 'assistant', content: [result('toolu_1')] }]))).toBe(
      'messages.1.content.0: tool_result blocks may only appear in user messages',
    );
  });
});
