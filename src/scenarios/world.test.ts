import { describe, expect, it } from 'vitest';
import { createWorld } from './world.js';

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
    expect(() => (first.records['users']?.['u_1'] as { tags: string[] }).tags.push('b')).toThrow(TypeError);
    // The scenario's own start state is left as it was, and still writable.
    start.records.users.u_1.tags.push('c');
    expect(first.records['users']?.['u_1']).toEqual({ id: 'u_1', tags: ['a'] });
  });
});
