import { describe, expect, it } from 'vitest';
import { quantileInterval } from './quantile-interval.js';

const ranks = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);

describe('quantileInterval', () => {
  it('gives the textbook order statistics for the median (Conover, table A3)', () => {
    // n = 10: P(B ≤ 1) = 0.0107, P(B ≤ 2) = 0.0547, so x(2) .. x(9).
    expect(quantileInterval(ranks(10), 0.5)).toEqual({ low: 2, high: 9 });
    // n = 100: x(40) .. x(61).
    expect(quantileInterval(ranks(100), 0.5)).toEqual({ low: 40, high: 61 });
  });

  it('brackets the p95 of a large sample near ranks n·0.95 ± 1.96·sqrt(n·0.95·0.05)', () => {
    // n = 10,000: 9,500 ± 42.7.
    const { low, high } = quantileInterval(ranks(10_000), 0.95);
    expect(low).toBeGreaterThanOrEqual(9455);
    expect(low).toBeLessThanOrEqual(9459);
    expect(high).toBeGreaterThanOrEqual(9542);
    expect(high).toBeLessThanOrEqual(9545);
  });

  it('reaches the largest value when there are too few runs for an upper bound, and copes with none', () => {
    expect(quantileInterval(ranks(20), 0.95).high).toBe(20);
    expect(quantileInterval(new Float64Array(0), 0.95)).toEqual({ low: 0, high: 0 });
  });
});
