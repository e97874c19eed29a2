import { describe, expect, it } from 'vitest';
import { canonicalCall, canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth, in code-unit order, integer-like keys included', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' }, 10: 0, 9: 1, B: 2 })).toBe(
      '{"10":0,"9":1,"B":2,"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('escapes strings and keys exactly as JSON.stringify does', () => {
    for (const text of [
      'plain',
      'quote " and \\ backslash',
      'tab\tnew\nline\u0001',
      'pair \ud83d\ude00',
      'lone \ud800 x',
      'é ü ☃',
    ]) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text));
      expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    }
  });

  it('leaves out undefined members and writes undefined array items and non-finite numbers as null', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, Number.NaN, 1.5] })).toBe('{"b":[null,null,1.5]}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('canonicalCall', () => {
  it('is canonicalJson of the pair { name, input }, whatever the input', () => {
    for (const input of [
      { b: 1, a: 'x' },
      undefined,
      null,
      'text',
      [1, { z: 1, y: 2 }],
      {},
      { record: { name: 'q"uote' } },
    ]) {
      for (const name of ['get_user', 'odd "name"'])
        expect(canonicalCall(name, input)).toBe(canonicalJson({ name, input }));
    }
  });
});
