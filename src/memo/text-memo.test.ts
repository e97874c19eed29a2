import { describe, expect, it } from 'vitest';
import { tryParseJson } from '../scenarios/parse-json.js';
import { textMemo } from './text-memo.js';

describe('textMemo', () => {
  it('reads each text once, and again only after it started afresh', () => {
    const reads: string[] = [];
    const length = textMemo((text) => {
      reads.push(text);
      return text.length;
    }, 64);
    const texts = Array.from({ length: 16 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    for (const text of texts) length(text);
    for (const text of texts) expect(length(text)).toBe(4);
    expect(reads).toEqual(texts);
    // 16 texts of 4 characters fill 64: a 17th starts the memo afresh, so the first is read again.
    length('t016');
    length('t000');
    expect(reads).toEqual([...texts, 't016', 't000']);
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

describe('textMemo with a text too long to keep', () => {
  it('reads it every time and keeps the shorter ones', () => {
    let reads = 0;
    const length = textMemo((text) => {
      reads += 1;
      return text.length;
    }, 160);
    const long = 'x'.repeat(11);
    expect([length(long), length(long)]).toEqual([11, 11]);
    expect(reads).toBe(2);
    length('short');
    length('short');
    expect(reads).toBe(3);
  });
});
