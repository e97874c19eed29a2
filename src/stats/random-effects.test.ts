import { describe, expect, it } from 'vitest';
import { randomEffects } from './random-effects.js';

describe('randomEffects', () => {
  it('matches a hand computation: three members 0.1, 0.3, 0.5, each with variance 0.01', () => {
    // w = 100 each, W = 300, fixed-effect mean 0.3.
    // Q = 100 · (0.2² + 0 + 0.2²) = 8; C = 300 − 3·100²/300 = 200; τ² = (8 − 2) / 200 = 0.03.
    // w* = 1 / (0.01 + 0.03) = 25 each, μ̂ = 0.3; HKSJ factor = 25 · 0.08 / 2 = 1, so SE = √(1/75) = 0.11547.
    // CI = 0.3 ± t(2) · 0.11547 = 0.3 ± 4.302653 · 0.11547 = [−0.196828, 0.796828].
    // PI = 0.3 ± t(1) · √(0.03 + 1/75) = 0.3 ± 12.706205 · 0.208167 = [−2.345007, 2.945007].
    // Heterogeneity: Q on 2 df against χ², p = e^(−8/2) = 0.0183156.
    // Shrunken: 0.3 + (0.03 / 0.04) · (θ − 0.3) = 0.15, 0.3, 0.45.
    const result = randomEffects([0.1, 0.3, 0.5].map((effect) => ({ effect, variance: 0.01 })));
    expect(result.members).toBe(3);
    expect(result.q).toBeCloseTo(8, 12);
    expect(result.tau2).toBeCloseTo(0.03, 12);
    expect(result.pooled).toBeCloseTo(0.3, 12);
    expect(result.standardError).toBeCloseTo(Math.sqrt(1 / 75), 12);
    expect(result.low).toBeCloseTo(-0.19682754235006605, 10);
    expect(result.high).toBeCloseTo(0.796827542350066, 10);
    expect(result.predictionLow).toBeCloseTo(-2.3450074381550405, 9);
    expect(result.predictionHigh).toBeCloseTo(2.94500743815504, 9);
    expect(result.heterogeneityP).toBeCloseTo(Math.exp(-4), 12);
    result.shrunken.forEach((value, m) => expect(value).toBeCloseTo([0.15, 0.3, 0.45][m]!, 12));
  });

  it('truncates τ² at 0 and floors the HKSJ factor at 1 when members agree better than their noise', () => {
    // Q = 100 · (0.05² + 0 + 0.05²) = 0.5 < 2, so τ² = 0 and the interval is the fixed-effect one, t(2) · √(1/300).
    // The raw HKSJ factor (0.25) would make it narrower than DerSimonian–Laird's; the floor keeps it at 1.
    const result = randomEffects([0.2, 0.25, 0.3].map((effect) => ({ effect, variance: 0.01 })));
    expect(result.tau2).toBe(0);
    expect(result.pooled).toBeCloseTo(0.25, 12);
    expect(result.low).toBeCloseTo(0.0015862288249669787, 10);
    expect(result.high).toBeCloseTo(0.49841377117503305, 10);
    expect(result.predictionLow).toBeCloseTo(-0.4835930724808958, 9);
    expect(result.heterogeneityP).toBeCloseTo(Math.exp(-0.25), 12);
    expect(result.shrunken).toEqual([0.25, 0.25, 0.25]);
  });

  it('matches a reference implementation (NumPy/SciPy) with unequal variances and an F test', () => {
    const result = randomEffects(
      [
        { effect: 0.1, variance: 0.02 },
        { effect: 0.4, variance: 0.01 },
        { effect: 0.25, variance: 0.04 },
        { effect: -0.05, variance: 0.015 },
      ],
      { withinDf: 60 },
    );
    expect(result.q).toBeCloseTo(8.728448275862071, 10);
    expect(result.tau2).toBeCloseTo(0.03390306122448981, 12);
    expect(result.pooled).toBeCloseTo(0.17695785929315438, 12);
    expect(result.standardError).toBeCloseTo(0.11523281560871888, 12);
    expect(result.low).toBeCloseTo(-0.18976438898825182, 10);
    expect(result.high).toBeCloseTo(0.5436801075745605, 10);
    expect(result.predictionLow).toBeCloseTo(-0.757635987755531, 9);
    expect(result.predictionHigh).toBeCloseTo(1.1115517063418399, 9);
    expect(result.heterogeneityP).toBeCloseTo(0.04175623229275199, 10);
    const shrunken = [0.1285541702251931, 0.34919667684074174, 0.21046597285870422, 0.019614617247978472];
    result.shrunken.forEach((value, m) => expect(value).toBeCloseTo(shrunken[m]!, 12));
  });

  it('with one member gives its own estimate and a normal interval, no prediction', () => {
    const result = randomEffects([{ effect: 0.2, variance: 0.0025 }]);
    expect(result.pooled).toBe(0.2);
    expect(result.low).toBeCloseTo(0.2 - 1.959963984540054 * 0.05, 12);
    expect(result.predictionLow).toBeNull();
    expect(result.heterogeneityP).toBe(1);
  });

  it('with two members has an interval but no prediction interval (t with 0 df)', () => {
    const result = randomEffects([
      { effect: 0.1, variance: 0.01 },
      { effect: 0.3, variance: 0.01 },
    ]);
    expect(result.pooled).toBeCloseTo(0.2, 12);
    expect(result.predictionLow).toBeNull();
    expect(result.predictionHigh).toBeNull();
  });

  it('without any seed noise takes the members as exact: a t-interval over them', () => {
    // Effects 0, 1, 1 exactly: mean 2/3, spread s² = 1/3, SE = √(1/9), CI = 2/3 ± 4.302653 / 3.
    const result = randomEffects([0, 1, 1].map((effect) => ({ effect, variance: 0 })));
    expect(result.pooled).toBeCloseTo(2 / 3, 12);
    expect(result.tau2).toBeCloseTo(1 / 3, 12);
    expect(result.low).toBeCloseTo(2 / 3 - 4.302652729749462 / 3, 10);
    expect(result.heterogeneityP).toBe(0);
    const same = randomEffects([0, 0, 0].map((effect) => ({ effect, variance: 0 })));
    expect([same.low, same.high, same.heterogeneityP]).toEqual([0, 0, 1]);
  });

  it('refuses no members, non-finite numbers and a mix of noisy and exact members', () => {
    expect(() => randomEffects([])).toThrow(RangeError);
    expect(() => randomEffects([{ effect: Number.NaN, variance: 1 }])).toThrow(RangeError);
    expect(() =>
      randomEffects([
        { effect: 0, variance: 0 },
        { effect: 1, variance: 0.1 },
      ]),
    ).toThrow(RangeError);
  });
});
