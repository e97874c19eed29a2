import { describe, expect, it } from 'vitest';
import { tryParseJson } from '../scenarios/parse-json.js';
import { textMemo } from './text-memo.js';

describe('textMemo', () => {
  it('reads each text once, and again only after it started afresh', () => {
    const reads: string[] = [];
    const length = textMemo((text) => {
      reads.push(text);
      return text.length;
    }, 10);
    expect([length('abcd'), length('abcd'), length('efgh'), length('abcd')]).toEqual([4, 4, 4, 4]);
    expect(reads).toEqual(['abcd', 'efgh']);
    // 4 + 4 + 4 characters exceed 10: the memo starts afresh, so 'abcd' is read again after it.
    length('ijkl');
    length('abcd');
    expect(reads).toEqual(['abcd', 'efgh', 'ijkl', 'abcd']);
  });

  it('remembers a reading of undefined too', () => {
    let reads = 0;
    const nothing = textMemo(() => {
      reads += 1;
      return undefined;
    }, 100);
    nothing('x');
    nothing('x');
    expect(reads).toBe(1);
  });
});

describe('tryParseJson', () => {
  it('hands out a shared parse that cannot be changed', () => {
    const text = '{"user":{"id":"u_1","tags":["a"]}}';
    const first = tryParseJson(text);
    const again = tryParseJson(`{"user":{"id":"u_1",${'"tags":["a"]}}'}`);
    expect(again).toBe(first);
    if (!first.ok) throw new Error('should parse');
    const value = first.value as { user: { id: string; tags: string[] } };
    expect(() => {
      value.user.id = 'u_2';
    }).toThrow(TypeError);
    expect(() => value.user.tags.push('b')).toThrow(TypeError);
    expect(value).toEqual({ user: { id: 'u_1', tags: ['a'] } });
  });

  it('says a cut-off body does not parse', () => {
    expect(tryParseJson('{"user":{"id":"u_')).toEqual({ ok: false });
  });
});
