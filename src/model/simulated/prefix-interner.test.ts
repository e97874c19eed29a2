import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { PrefixInterner, sameJson } from './prefix-interner.js';

const prompt: MessageParam = { role: 'user', content: 'Fetch user u_1042, transform it, write it.' };
const call: MessageParam = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Fetching the user.' },
    { type: 'tool_use', id: 'toolu_sim_0', name: 'get_user', input: { user_id: 'u_1042', fields: ['name', 'email'] } },
  ],
};
const result: MessageParam = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 'toolu_sim_0', content: '{"id":"u_1042","name":"Ada"}' }],
};
const nextCall: MessageParam = {
  role: 'assistant',
  content: [{ type: 'tool_use', id: 'toolu_sim_1', name: 'transform_record', input: { record: { id: 'u_1042' } } }],
};

/** The request as a client sends it again: the same data, parsed into new objects. */
const reparsed = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('sameJson', () => {
  it('holds for the same data in new objects', () => {
    expect(sameJson([prompt, call, result], reparsed([prompt, call, result]))).toBe(true);
  });

  it('tells apart any value, key order, a missing key from an undefined one, and -0 from 0', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson({ n: -0 }, { n: 0 })).toBe(false);
    expect(sameJson({ n: '1' }, { n: 1 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1, [2]], [1, { 0: 2 }])).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    const changed = reparsed(call);
    (changed.content as { input?: { fields: string[] } }[])[1]!.input!.fields[1] = 'phone';
    expect(sameJson(call, changed)).toBe(false);
  });

  it('counts only plain data as equal to other data', () => {
    class Box {
      constructor(readonly value: number) {}
    }
    const box = new Box(1);
    expect(sameJson(new Box(1), new Box(1))).toBe(false);
    expect(sameJson({ box }, { box })).toBe(true);
    expect(sameJson(new Map(), new Map())).toBe(false);
  });
});

describe('PrefixInterner', () => {
  it('gives a resent prefix the earlier objects, and keeps what is new', () => {
    const interner = new PrefixInterner();
    const first = reparsed([prompt, call, result]);
    expect(interner.adopt(first)).toBe(0);
    const second = reparsed([prompt, call, result, nextCall]);
    const fresh = second[3];
    expect(interner.adopt(second)).toBe(3);
    expect(second.slice(0, 3).every((message, i) => message === first[i])).toBe(true);
    expect(second[3]).toBe(fresh);
    // The next request shares its prefix with this one, the new message included.
    const third = reparsed([prompt, call, result, nextCall, result]);
    expect(interner.adopt(third)).toBe(4);
    expect(third[3]).toBe(second[3]);
  });

  it('stops at the first message that changed, and adopts nothing after it', () => {
    const interner = new PrefixInterner();
    const first = reparsed([prompt, call, result, nextCall]);
    interner.adopt(first);
    // An old result cleared in place of its text (what a compaction or a context editor does).
    const cleared = reparsed([prompt, call, result, nextCall]);
    (cleared[2]!.content as { content: string }[])[0]!.content = '[cleared]';
    const [, , changed, after] = cleared;
    expect(interner.adopt(cleared)).toBe(2);
    expect(cleared[2]).toBe(changed);
    expect(cleared[3]).toBe(after);
    expect(cleared[3]).not.toBe(first[3]);
  });

  it('adopts nothing from a rebuilt transcript: merged, summarised or reordered', () => {
    const interner = new PrefixInterner();
    interner.adopt(reparsed([prompt, call, result, nextCall]));
    const summarised = reparsed<MessageParam[]>([
      { role: 'user', content: 'Summary of the conversation so far: get_user succeeded.' },
      nextCall,
    ]);
    expect(interner.adopt(summarised)).toBe(0);
    interner.adopt(reparsed([prompt, call, result]));
    const merged = reparsed<MessageParam[]>([
      { role: 'user', content: [{ type: 'text', text: prompt.content as string }] },
      call,
      result,
    ]);
    expect(interner.adopt(merged)).toBe(0);
  });
});
