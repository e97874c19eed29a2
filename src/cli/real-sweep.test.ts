import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../results/run-record-schema.js';
import { ModelUnreachable } from './model-unreachable.js';
import { watchRealSweep } from './real-sweep.js';

const refused = {
  outcome: 'failed',
  model_calls: 0,
  failure_reason: { error_class: 'APIConnectionError', status: null, message: 'Connection error. (ECONNREFUSED)' },
} as RunRecord;

describe('watchRealSweep', () => {
  it('stops the sweep at the third run without a reply, and says how far it got and how to resume', () => {
    const watch = watchRealSweep('/results/x');
    watch.onRecord(refused);
    watch.onRecord(refused);
    expect(watch.stop.signal.aborted).toBe(false);
    watch.onRecord(refused);
    expect(watch.stop.signal.aborted).toBe(true);
    const error = watch.stop.error({ done: 4, total: 40, resume: 'spiralbench run -s a --resume' });
    expect(error).toBeInstanceOf(ModelUnreachable);
    expect(error.message).toBe(
      'the real model never answered: the first 3 runs failed before a single reply — APIConnectionError (no HTTP status): Connection error. (ECONNREFUSED); 4 of 40 runs are written to /results/x; resume with: spiralbench run -s a --resume',
    );
  });

  it('still exits with the reason when the stop came with the last run of the sweep (nothing left to stop)', () => {
    const watch = watchRealSweep('/results/x');
    for (let i = 0; i < 3; i++) watch.onRecord(refused);
    expect(() => watch.finished()).toThrow(
      /^the real model never answered: the first 3 runs failed before a single reply — .*; the sweep is complete in \/results\/x: run it again once the model answers$/,
    );
  });

  it('says nothing after a sweep whose model answered', () => {
    const watch = watchRealSweep('/results/x');
    watch.onRecord({ outcome: 'completed', model_calls: 2 } as RunRecord);
    expect(() => watch.finished()).not.toThrow();
    expect(watch.stop.signal.aborted).toBe(false);
  });
});
