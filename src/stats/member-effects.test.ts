import { describe, expect, it } from 'vitest';
import { memberEffects } from './member-effects.js';

describe('memberEffects', () => {
  it('paired: mean differences per member, variance from the noise pooled over members (by hand)', () => {
    // d = b − a per seed:  member 0: 1, 0, 1, 0 (mean 0.5, Σ(d − d̄)² = 1)
    //                      member 1: 0, −1, 0, 0 (mean −0.25, Σ = 0.75)
    //                      member 2: 1, 1, 1, 0 (mean 0.75, Σ = 0.75)
    // Pooled within variance = (1 + 0.75 + 0.75) / (3 + 3 + 3) = 2.5 / 9; each member's v = (2.5 / 9) / 4.
    const effects = memberEffects([
      {
        paired: true,
        members: [
          { member: 2, a: [0, 0, 0, 0], b: [1, 1, 1, 0] },
          { member: 0, a: [0, 1, 0, 1], b: [1, 1, 1, 1] },
          { member: 1, a: [1, 1, 1, 1], b: [1, 0, 1, 1] },
        ],
      },
    ]);
    expect(effects.members).toEqual([0, 1, 2]);
    expect(effects.effects).toEqual([0.5, -0.25, 0.75]);
    for (const estimate of effects.estimates) expect(estimate.variance).toBeCloseTo(2.5 / 9 / 4, 14);
    expect(effects.withinDf).toBe(9);
    expect(effects.runs).toBe(12);
  });

  it('unpaired: difference of means, each arm’s noise pooled over members', () => {
    // A: member 0 [0, 1] (Σ 0.5), member 1 [1, 1, 1] (Σ 0) → var A = 0.5 / 3
    // B: member 0 [1, 1, 1] (Σ 0), member 1 [0, 1] (Σ 0.5) → var B = 0.5 / 3
    const effects = memberEffects([
      {
        paired: false,
        members: [
          { member: 0, a: [0, 1], b: [1, 1, 1] },
          { member: 1, a: [1, 1, 1], b: [0, 1] },
        ],
      },
    ]);
    expect(effects.effects).toEqual([0.5, -0.5]);
    expect(effects.estimates[0]!.variance).toBeCloseTo(0.5 / 3 / 2 + 0.5 / 3 / 3, 14);
    expect(effects.estimates[1]!.variance).toBeCloseTo(0.5 / 3 / 3 + 0.5 / 3 / 2, 14);
    expect(effects.withinDf).toBe(6);
  });

  it('over several strata: each scenario counts once, variances add over strata squared', () => {
    const effects = memberEffects([
      { paired: true, members: [{ member: 0, a: [0, 0], b: [1, 0] }] },
      { paired: true, members: [{ member: 0, a: [0, 0, 0, 0], b: [1, 1, 1, 1] }] },
    ]);
    // Stratum 1: d = 1, 0 (mean 0.5, var 0.5, v = 0.25); stratum 2: d = 1 ×4 (mean 1, var 0, v = 0).
    expect(effects.effects).toEqual([0.75]);
    expect(effects.estimates[0]!.variance).toBeCloseTo((0.25 + 0) / 4, 14);
    expect(effects.withinDf).toBe(1 + 3);
  });

  it('keeps only members with runs under both arms in every stratum', () => {
    const effects = memberEffects([
      {
        paired: true,
        members: [
          { member: 0, a: [1], b: [1] },
          { member: 1, a: [0], b: [1] },
          { member: 2, a: [], b: [] },
        ],
      },
      { paired: true, members: [{ member: 1, a: [1], b: [1] }] },
    ]);
    expect(effects.members).toEqual([1]);
  });

  it('refuses paired runs of different lengths', () => {
    expect(() => memberEffects([{ paired: true, members: [{ member: 0, a: [1, 0], b: [1] }] }])).toThrow(RangeError);
  });
});
