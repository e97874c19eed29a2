import { describe, expect, it } from 'vitest';
import type { Guard } from './guard.js';
import { guardHooks } from './guard-hooks.js';

describe('guardHooks', () => {
  it('lists, per phase, only the guards with that hook, in the arm order', () => {
    const first: Guard = { name: 'first', beforeToolCall: () => undefined, afterToolBatch: () => undefined };
    const second: Guard = { name: 'second', beforeModelCall: () => undefined };
    const third: Guard = { name: 'third', beforeToolCall: () => undefined, prepareRequest: (request) => request };
    const hooks = guardHooks([first, second, third]);
    const names = (guards: readonly Guard[]) => guards.map((guard) => guard.name);
    expect(names(hooks.beforeToolCall)).toEqual(['first', 'third']);
    expect(names(hooks.beforeModelCall)).toEqual(['second']);
    expect(names(hooks.prepareRequest)).toEqual(['third']);
    expect(names(hooks.afterToolBatch)).toEqual(['first']);
    expect(hooks.afterModelReply).toEqual([]);
  });
});
