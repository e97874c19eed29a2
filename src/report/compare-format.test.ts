import { describe, expect, it } from 'vitest';
import type { SuccessChange } from './compare.js';
import { successLines } from './compare-format.js';

const change = (over: Partial<SuccessChange>): SuccessChange => ({
  successesA: 50,
  trialsA: 100,
  successesB: 59,
  trialsB: 100,
  rateA: 0.5,
  rateB: 0.59,
  difference: 0.09,
  low: -0.007,
  high: 0.184,
  p: 0.085,
  significant: false,
  basis: 'fisher',
  ...over,
});

describe('successLines', () => {
  it('stars the difference when Fisher says it is significant', () => {
    expect(successLines(change({ p: 0.01, significant: true, low: 0.02 }))[1]).toMatch(/ \*$/);
    expect(successLines(change({}))[1]).not.toMatch(/\*/);
  });

  it('with an ensemble, never stars an unpaired interval that crosses 0, even when the pooled paired one is significant', () => {
    const line = successLines(change({ significant: true, basis: 'ensemble' }))[1];
    expect(line).toBe('+9.0 pts [-0.7, +18.4]');
    expect(successLines(change({ significant: true, basis: 'ensemble', low: 0.01 }))[1]).toMatch(/ \*$/);
  });
});
