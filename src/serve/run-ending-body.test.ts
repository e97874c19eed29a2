import { describe, expect, it } from 'vitest';
import { runEnding } from './run-ending-body.js';
import { ServeRefusal } from './serve-refusal.js';

const refusal = (text: string): ServeRefusal => {
  try {
    runEnding(text);
  } catch (error) {
    if (error instanceof ServeRefusal) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
};

describe('runEnding', () => {
  it('reads each outcome', () => {
    expect(runEnding('{"outcome":"completed","final_text":"done"}')).toEqual({
      outcome: 'completed',
      finalText: 'done',
    });
    expect(runEnding('{"outcome":"completed"}')).toEqual({ outcome: 'completed', finalText: '' });
    expect(runEnding('{"outcome":"escalated","escalation":{"question":"which?"}}')).toEqual({
      outcome: 'escalated',
      payload: { question: 'which?' },
    });
    expect(runEnding('{"outcome":"max_iterations","iterations":30}')).toEqual({
      outcome: 'max_iterations',
      iterations: 30,
    });
    const failed = runEnding('{"outcome":"failed","reason":"gave up"}');
    expect(failed).toMatchObject({ outcome: 'failed', reason: 'gave up' });
    // The reason reaches the record's failure_reason through an error named for who reported it.
    expect((failed as { error: Error }).error.name).toBe('AgentReportedFailure');
  });

  it('refuses with a 400 naming the field', () => {
    expect(refusal('{"outcome":"done"}').message).toMatch(/^outcome: expected one of 'completed'/);
    expect(refusal('{}').message).toMatch(/^outcome: /);
    expect(refusal('{"outcome":"failed"}').message).toMatch(/^reason: expected a non-empty string/);
    expect(refusal('{"outcome":"completed","final_txt":"x"}').message).toMatch(/^final_txt: not a field/);
    expect(refusal('{"outcome":"completed"').status).toBe(400);
  });

  it('says once what a field takes and what it got', () => {
    expect(refusal('{"outcome":"completed","final_text":5}').message).toBe(
      "final_text: expected a string (the agent's final answer), got 5",
    );
    expect(refusal('{"outcome":"max_iterations","iterations":-1}').message).toBe(
      'iterations: expected a whole number of at least 0, got -1',
    );
  });
});
