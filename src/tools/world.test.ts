import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../memo/frozen-json.js';
import { tryParseJson } from '../scenarios/parse-json.js';
import { createWorld, type Json } from './world.js';

describe('createWorld', () => {
  const start = { records: { users: { u_1: { id: 'u_1', tags: ['a'] } } } };

  it('gives each run its own outbox over one frozen copy of the records', () => {
    const first = createWorld(start);
    const second = createWorld(start);
    first.outbox.push({ key: 'k', value: 1 });
    expect(second.outbox).toEqual([]);
    expect(second.records).toBe(first.records);
    expect(first.records).not.toBe(start.records);
    expect(() => {
      (first.records['users'] as Record<string, unknown>)['u_2'] = {};
    }).toThrow(TypeError);
    expect(() => (first.records['users']!['u_1'] as { tags: string[] }).tags.push('b')).toThrow(TypeError);
    // The scenario's own start state is left as it was, and still writable.
    start.records.users.u_1.tags.push('c');
    expect(first.records['users']?.['u_1']).toEqual({ id: 'u_1', tags: ['a'] });
  });
});

describe('deepFreeze', () => {
  it('freezes a value nested deeper than the call stack goes', () => {
    const depth = 50_000;
    const text = '['.repeat(depth) + ']'.repeat(depth);
    const value = deepFreeze(JSON.parse(text) as Json);
    let inner = value as Json[];
    for (let i = 1; i < depth; i++) inner = inner[0] as Json[];
    expect(Object.isFrozen(inner)).toBe(true);
    expect(tryParseJson(text).ok).toBe(true);
  });
});
