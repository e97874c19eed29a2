import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../memo/frozen-json.js';
import { jsonLength } from './json-length.js';

const record = deepFreeze({ id: 'u_1', name: 'Zoë "Z" Ng', tags: ['a', 'b\n'], score: -0.5, ok: true, none: null });

describe('jsonLength', () => {
  it('is the length of JSON.stringify for every kind of value it adds up', () => {
    const values: unknown[] = [
      {},
      [],
      '',
      'plain',
      'quote " and \\ and \n and \u0001',
      'lone \ud800 surrogate, pair \ud83d\ude00',
      0,
      -0,
      1e21,
      -1.5e-7,
      NaN,
      Infinity,
      true,
      false,
      null,
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
      { a: undefined },
      [undefined, () => 1, Symbol('s'), 1],
      // biome-ignore lint/suspicious/noSparseArray: a hole serialises as null, which is the point
      [1, , 3],
      { record, nested: { record, list: [record, { x: 'é' }] } },
      { 'key "quoted"\n': 1, [Symbol('hidden')]: 2 },
      Object.defineProperty({ a: 1 }, '__proto__', { value: { b: 2 }, enumerable: true }),
      Object.assign(Object.create(null) as object, { a: [1, 2] }),
      { when: new Date(0), map: new Map([[1, 2]]), boxed: new String('s'), own: { toJSON: () => 'x' } },
      Object.freeze({ open: { a: 1 } }),
    ];
    for (const value of values) expect(jsonLength(value)).toBe(JSON.stringify(value)?.length);
  });

  it('gives undefined where stringify does, and throws where it throws', () => {
    expect(jsonLength(undefined)).toBeUndefined();
    expect(jsonLength(() => 1)).toBeUndefined();
    expect(() => jsonLength({ big: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => jsonLength(cycle)).toThrow(TypeError);
  });

  it('follows a value that is not frozen when it changes', () => {
    const open: Record<string, unknown> = { a: 'x' };
    expect(jsonLength(open)).toBe(9);
    open['a'] = 'longer';
    expect(jsonLength(open)).toBe(JSON.stringify(open).length);
  });
});
