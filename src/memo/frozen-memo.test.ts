import { describe, expect, it } from 'vitest';
import { deepFreeze } from './frozen-json.js';
import { canonicalJson } from '../scenarios/canonical-json.js';
import { frozenMemo, isDeepFrozen } from './frozen-memo.js';

describe('isDeepFrozen', () => {
  it('is true only when every depth is frozen', () => {
    expect(isDeepFrozen(deepFreeze({ a: [1, { b: 'c' }] }))).toBe(true);
    expect(isDeepFrozen(Object.freeze({ a: { b: 'c' } }))).toBe(false);
    expect(isDeepFrozen({ a: 1 })).toBe(false);
    expect(isDeepFrozen('text')).toBe(true);
    expect(isDeepFrozen(null)).toBe(true);
  });
});

describe('frozenMemo', () => {
  it('reads a deep-frozen value once, and every other value afresh', () => {
    const reads: object[] = [];
    const keys = frozenMemo((value) => {
      reads.push(value);
      return Object.keys(value).join(',');
    });
    const frozen = deepFreeze({ a: 1, b: { c: 2 } });
    expect([keys(frozen), keys(frozen)]).toEqual(['a,b', 'a,b']);
    expect(reads).toEqual([frozen]);

    // Frozen on top only: a member could still change, so it is not remembered.
    const shallow = Object.freeze({ a: { c: 2 } });
    keys(shallow);
    keys(shallow);
    const open: Record<string, unknown> = { a: 1 };
    keys(open);
    open['b'] = 2;
    expect(keys(open)).toBe('a,b');
    expect(reads).toEqual([frozen, shallow, shallow, open, open]);
  });
});

describe('canonicalJson of frozen and open values', () => {
  it('writes a value the same whether it is frozen or not, and follows changes to an open one', () => {
    const open: Record<string, unknown> = { b: [1, { d: 'x', c: null }], a: 'é"' };
    const text = canonicalJson(open);
    expect(text).toBe('{"a":"é\\"","b":[1,{"c":null,"d":"x"}]}');
    expect(canonicalJson(deepFreeze(structuredClone(open) as never))).toBe(text);
    open['a'] = 'changed';
    expect(canonicalJson(open)).toBe('{"a":"changed","b":[1,{"c":null,"d":"x"}]}');
  });
});
