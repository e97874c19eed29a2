import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../memo/frozen-json.js';
import { createWorld } from '../../tools/world.js';
import { ANSWER_KEY, readResult, submitAnswer, writeResult } from './outbox.js';

describe('submit_answer', () => {
  it('delivers the answer to the outbox, once per call', () => {
    expect(submitAnswer.sideEffecting).toBe(true);
    const world = createWorld({ records: {} });
    expect(submitAnswer.run({ answer: 'shipped' }, world)).toEqual({ ok: true, delivered: true });
    expect(world.outbox).toEqual([{ key: ANSWER_KEY, value: 'shipped' }]);
  });

  it('refuses an empty answer without delivering anything', () => {
    const world = createWorld({ records: {} });
    expect(() => submitAnswer.run({ answer: '' }, world)).toThrow("'answer' must not be empty");
    expect(() => submitAnswer.run({}, world)).toThrow("'answer' must not be empty");
    expect(world.outbox).toEqual([]);
  });
});

describe('write_result and read_result', () => {
  it('reads back the latest write under a key and how many there were', () => {
    const world = createWorld({ records: {} });
    expect(readResult.run({ key: 'k' }, world)).toEqual({ key: 'k', found: false });
    writeResult.run({ key: 'k', value: { a: 1 } }, world);
    writeResult.run({ key: 'k', value: { a: 2 } }, world);
    expect(readResult.run({ key: 'k' }, world)).toEqual({ key: 'k', found: true, value: { a: 2 }, writes: 2 });
  });

  it('keeps its own copy of a value that can still change, and a frozen value as it is', () => {
    const world = createWorld({ records: {} });
    const open = { a: { b: 1 } };
    writeResult.run({ key: 'k', value: open }, world);
    open.a.b = 2;
    expect(world.outbox[0]?.value).toEqual({ a: { b: 1 } });
    const frozen = deepFreeze({ a: { b: 3 } });
    writeResult.run({ key: 'k', value: frozen }, world);
    expect(world.outbox[1]?.value).toBe(frozen);
  });
});
