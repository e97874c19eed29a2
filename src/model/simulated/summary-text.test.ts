import { describe, expect, it } from 'vitest';
import { readRecollection, SUMMARY_HEADER } from './summary-text.js';

describe('readRecollection', () => {
  it('reads a marked text for every message that holds it, and an unmarked one as none', () => {
    const task = 'Fetch user u_1, transform the record and write it to the outbox.';
    const notice = '[3 earlier turns were dropped to fit the context window]';
    // The same texts in message after message (run after run): the answer is the text's.
    for (let i = 0; i < 3; i++) {
      expect(readRecollection(task, {})).toBeNull();
      expect(readRecollection(notice, {})?.coveredTurns).toBe(3);
    }
    const summary = `${SUMMARY_HEADER} (covers 2 turns):\n- get_user {"id":"u_1"} succeeded: {"id":"u_1"}`;
    const recollection = readRecollection(summary, {});
    expect(recollection?.coveredTurns).toBe(2);
    expect(recollection?.calls.map((call) => call.name)).toEqual(['get_user']);
  });
});
