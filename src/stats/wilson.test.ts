import { describe as group, expect, it } from 'vitest';
import { describe } from './descriptive.js';
import { wilson } from './wilson.js';

group('wilson', () => {
  it('matches the hand-computed interval for 32 of 50', () => {
    // p = 0.64, z = 1.96: centre = (0.64 + 0.038415) / 1.076829 = 0.630010,
    // half = 1.96/1.076829 * sqrt(0.004608 + 0.000384) = 0.128616
    expect(wilson(32, 50)).toEqual({ successes: 32, trials: 50, rate: 0.64, low: 0.5014, high: 0.7586 });
  });

  it('stays inside [0, 1] at the edges', () => {
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(0, 10).high).toBe(0.2775);
    expect(wilson(10, 10).high).toBe(1);
    expect(wilson(10, 10).low).toBe(0.7225);
  });

  it('is empty for no trials', () => {
    expect(wilson(0, 0)).toEqual({ successes: 0, trials: 0, rate: 0, low: 0, high: 0 });
  });
});

group('describe', () => {
  it('interpolates quantiles linearly (numpy default)', () => {
    // 1..20: median = 10.5; p95 at index 18.05 -> 19 + 0.05 = 19.05
    const values = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(describe(values)).toEqual({ median: 10.5, p95: 19.05, max: 20, mean: 10.5 });
  });

  it('is all zero for no values', () => {
    expect(describe([])).toEqual({ median: 0, p95: 0, max: 0, mean: 0 });
  });
});
