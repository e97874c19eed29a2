import { describe, expect, it } from 'vitest';
import { ArmHealth, BROKEN_ARM_RUNS } from './arm-health.js';
import type { RunRecord } from '../results/run-record-schema.js';

const reason = { error_class: 'TypeError', status: null, message: 'model id is not set' };

/** Just the fields ArmHealth reads. */
const run = (
  arm: string,
  over: Partial<Record<'outcome' | 'failure_reason' | 'faults' | 'model_faults', unknown>> = {},
) =>
  ({
    arm,
    outcome: 'failed',
    failure_reason: reason,
    faults: { timeout: 0 },
    model_faults: { rate_limit: 0 },
    ...over,
  }) as unknown as RunRecord;

describe('ArmHealth', () => {
  it('calls an arm broken once its first 3 runs without an injected fault fail with one reason, once', () => {
    const health = new ArmHealth();
    expect(BROKEN_ARM_RUNS).toBe(3);
    expect(health.observe(run('a'))).toBeNull();
    // A run that met a fault neither counts nor clears.
    expect(health.observe(run('a', { faults: { timeout: 1 } }))).toBeNull();
    expect(health.observe(run('b', { outcome: 'completed', failure_reason: undefined }))).toBeNull();
    expect(health.observe(run('a'))).toBeNull();
    expect(health.observe(run('a'))).toEqual({ arm: 'a', runs: 3, reason });
    expect(health.observe(run('a'))).toBeNull();
    expect(health.watching('a')).toBe(false);
  });

  it('leaves alone an arm with one good run, two reasons, or failures only under faults', () => {
    const health = new ArmHealth();
    health.observe(run('good'));
    health.observe(run('good', { outcome: 'budget_exhausted', failure_reason: undefined }));
    for (let i = 0; i < 5; i++) expect(health.observe(run('good'))).toBeNull();
    health.observe(run('two'));
    health.observe(run('two', { failure_reason: { ...reason, message: 'other' } }));
    for (let i = 0; i < 5; i++) expect(health.observe(run('two'))).toBeNull();
    for (let i = 0; i < 5; i++) expect(health.observe(run('storm', { model_faults: { rate_limit: 2 } }))).toBeNull();
    expect(health.watching('storm')).toBe(true);
  });
});
