import { describe, expect, it } from 'vitest';
import type { FailureReason } from '../results/field-schemas.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { SweepHealth, UNANSWERED_RUNS_TO_STOP } from './sweep-health.js';

const REFUSED: FailureReason = { error_class: 'APIConnectionError', status: null, message: 'Connection error.' };
const UNAUTHORIZED: FailureReason = { error_class: 'AuthenticationError', status: 401, message: 'invalid x-api-key' };

/** The fields the health check reads; the rest of a record does not matter to it. */
function run(modelCalls: number, reason?: FailureReason): RunRecord {
  return {
    outcome: reason === undefined ? 'completed' : 'failed',
    model_calls: modelCalls,
    ...(reason === undefined ? {} : { failure_reason: reason }),
  } as RunRecord;
}

describe('SweepHealth', () => {
  it(`says the model never answered at the ${UNANSWERED_RUNS_TO_STOP}rd run that failed before a reply, naming the first reason`, () => {
    const health = new SweepHealth();
    expect(health.observe(run(0, UNAUTHORIZED))).toBeNull();
    expect(health.observe(run(0, REFUSED))).toBeNull();
    expect(health.observe(run(0, REFUSED))).toEqual({ runs: 3, reason: UNAUTHORIZED });
    // Said once: the sweep is already stopping.
    expect(health.observe(run(0, REFUSED))).toBeNull();
  });

  it('leaves the sweep alone once one of its first runs got a reply, whatever follows', () => {
    const answeredThenFailed = new SweepHealth();
    answeredThenFailed.observe(run(0, REFUSED));
    answeredThenFailed.observe(run(2, UNAUTHORIZED));
    expect(answeredThenFailed.observe(run(0, REFUSED))).toBeNull();
    expect(answeredThenFailed.finish()).toBeNull();

    const succeeded = new SweepHealth();
    succeeded.observe(run(0, REFUSED));
    succeeded.observe(run(0, REFUSED));
    expect(succeeded.observe(run(3))).toBeNull();
  });

  it('does not count a run that failed without an error it can name', () => {
    const health = new SweepHealth();
    health.observe(run(0, REFUSED));
    health.observe(run(0, REFUSED));
    expect(health.observe({ outcome: 'failed', model_calls: 0 } as RunRecord)).toBeNull();
  });

  it('judges a sweep shorter than the threshold at its end, and only then', () => {
    const short = new SweepHealth();
    expect(short.finish()).toBeNull();
    short.observe(run(0, REFUSED));
    expect(short.finish()).toEqual({ runs: 1, reason: REFUSED });
    const long = new SweepHealth();
    for (let i = 0; i < 4; i++) long.observe(run(0, REFUSED));
    // Past the threshold the verdict was observe's to give; finish() does not repeat it.
    expect(long.finish()).toBeNull();
  });
});
