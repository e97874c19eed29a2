import { describe, expect, it } from 'vitest';
import { newcombeDifference } from './newcombe.js';

describe('newcombeDifference', () => {
  it('matches Newcombe (1998), example (a): 56/70 − 48/80', () => {
    // Wilson: 48/80 → [0.4905, 0.7004], 56/70 → [0.6918, 0.8770]; d = 0.8 − 0.6 = 0.2
    // low  = 0.2 − √((0.8 − 0.6918)² + (0.7004 − 0.6)²) = 0.2 − √(0.011707 + 0.010080) = 0.0524
    // high = 0.2 + √((0.8770 − 0.8)² + (0.6 − 0.4905)²) = 0.2 + √(0.005929 + 0.011990) = 0.3339
    // The paper's table II gives 0.0524 to 0.3339 for method 10.
    expect(newcombeDifference({ successes: 48, trials: 80 }, { successes: 56, trials: 70 })).toEqual({
      estimate: 0.2,
      low: 0.0524,
      high: 0.3339,
    });
  });

  it('flips sign and ends when a and b swap', () => {
    expect(newcombeDifference({ successes: 56, trials: 70 }, { successes: 48, trials: 80 })).toEqual({
      estimate: -0.2,
      low: -0.3339,
      high: -0.0524,
    });
  });

  it('contains 0 for equal samples and stays inside [−1, 1] at the extremes', () => {
    const same = newcombeDifference({ successes: 30, trials: 50 }, { successes: 30, trials: 50 });
    expect(same.estimate).toBe(0);
    expect(same.low).toBeLessThan(0);
    expect(same.high).toBe(-same.low);
    // 0/10 vs 10/10: Wilson [0, 0.2775] and [0.7225, 1]; low = 1 − √(0.2775² + 0.2775²) = 0.6076
    expect(newcombeDifference({ successes: 0, trials: 10 }, { successes: 10, trials: 10 })).toEqual({
      estimate: 1,
      low: 0.6076,
      high: 1,
    });
  });

  it('rejects empty or impossible counts', () => {
    expect(() => newcombeDifference({ successes: 0, trials: 0 }, { successes: 1, trials: 2 })).toThrow(RangeError);
    expect(() => newcombeDifference({ successes: 3, trials: 2 }, { successes: 1, trials: 2 })).toThrow(RangeError);
  });
});
