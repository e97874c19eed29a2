import { describe, expect, it } from 'vitest';
import { passHatK } from './pass-hat-k.js';

describe('passHatK', () => {
  it('is C(c,k)/C(n,k) for one task', () => {
    // n = 4, c = 2, k = 2: C(2,2)/C(4,2) = 1/6
    expect(passHatK([{ trials: 4, successes: 2 }], 2)).toBeCloseTo(1 / 6, 15);
    // n = 5, c = 3, k = 3: C(3,3)/C(5,3) = 1/10
    expect(passHatK([{ trials: 5, successes: 3 }], 3)).toBeCloseTo(0.1, 15);
    // n = 8, c = 6, k = 2: C(6,2)/C(8,2) = 15/28
    expect(passHatK([{ trials: 8, successes: 6 }], 2)).toBeCloseTo(15 / 28, 15);
  });

  it('averages over tasks, and pass^1 is the mean success rate', () => {
    const tasks = [
      { trials: 4, successes: 2 },
      { trials: 4, successes: 4 },
    ];
    // (1/6 + 1)/2 = 7/12
    expect(passHatK(tasks, 2)).toBeCloseTo(7 / 12, 15);
    // (2/4 + 4/4)/2 = 3/4
    expect(passHatK(tasks, 1)).toBeCloseTo(0.75, 15);
  });

  it('is 0 for a task with fewer successes than k, and 1 for one that always succeeds', () => {
    expect(passHatK([{ trials: 10, successes: 2 }], 3)).toBe(0);
    expect(passHatK([{ trials: 10, successes: 10 }], 10)).toBe(1);
  });

  it('falls as k grows for an unreliable task', () => {
    const task = [{ trials: 10, successes: 7 }];
    const values = [1, 2, 4, 7].map((k) => passHatK(task, k));
    // k = 7: 1/C(10,7) = 1/120
    expect(values).toEqual([0.7, 7 / 15, 1 / 6, 1 / 120].map((x) => expect.closeTo(x, 14)));
  });

  it('throws a RangeError for k beyond a task’s trials or nonsense input', () => {
    expect(() => passHatK([{ trials: 4, successes: 2 }], 5)).toThrow(RangeError);
    expect(() => passHatK([{ trials: 4, successes: 2 }], 0)).toThrow(RangeError);
    expect(() => passHatK([{ trials: 4, successes: 5 }], 1)).toThrow(RangeError);
    expect(() => passHatK([], 1)).toThrow(RangeError);
  });
});
