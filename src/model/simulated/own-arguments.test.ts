import { describe, expect, it } from 'vitest';
import { readOwnArguments } from './own-arguments.js';

describe('readOwnArguments', () => {
  it('takes an object as is, and plain JSON text as not garbled', () => {
    const input = { a: 1 };
    expect(readOwnArguments(input)).toEqual({ input, garbled: false });
    expect(readOwnArguments('{"a":1}')).toEqual({ input: { a: 1 }, garbled: false });
  });

  it('reads fenced, prose-wrapped, Python-style and cut-off text leniently, as garbled', () => {
    expect(readOwnArguments('```json\n{"a": 1}\n```')).toEqual({ input: { a: 1 }, garbled: true });
    expect(readOwnArguments('Here: {"a": "x"} done.')).toEqual({ input: { a: 'x' }, garbled: true });
    expect(readOwnArguments("{'a': True}")).toEqual({ input: { a: true }, garbled: true });
    expect(readOwnArguments('{"a": 1, "b": "Ada Lov')).toEqual({ input: { a: 1, b: 'Ada Lov' }, garbled: true });
  });

  it('reads nothing from text without an object', () => {
    expect(readOwnArguments('no idea')).toEqual({ input: {}, garbled: true });
    expect(readOwnArguments('[1]')).toEqual({ input: {}, garbled: true });
    expect(readOwnArguments(undefined)).toEqual({ input: {}, garbled: false });
  });
});
