import { describe, expect, it } from 'vitest';
import { PERSONA_PARAMETERS, PERSONA_PRIORS } from '../model/simulated/persona-priors.js';
import { stream } from '../random/streams.js';
import { DIMENSIONS, drawPoint, parametersAt, reflect, stepFrom, valueAt } from './prior-space.js';

describe('the prior cube', () => {
  it('maps each coordinate onto its parameter’s range, whole numbers in equal slices', () => {
    expect(valueAt('detour.persistence', 0)).toBe(0.3);
    expect(valueAt('detour.persistence', 1)).toBe(0.95);
    expect(valueAt('detour.persistence', 0.5)).toBe(0.625);
    // help.after_failures: 1..8, eight slices of 1/8.
    expect([0, 0.124, 0.125, 0.5, 0.999, 1].map((u) => valueAt('help.after_failures', u))).toEqual([1, 1, 2, 5, 8, 8]);
    // Four decimals: the value simulated is the value written.
    expect(valueAt('give_up.in_detour', 1 / 3)).toBe(0.0167);
  });

  it('draws every parameter inside its prior', () => {
    const rng = stream({ sweepSeed: 3, scenario: 'test', runSeed: 0 }, 'prior', 0);
    for (let i = 0; i < 200; i++) {
      const values = parametersAt(drawPoint(rng));
      expect(Object.keys(values)).toEqual(PERSONA_PARAMETERS);
      for (const parameter of PERSONA_PARAMETERS) {
        const [low, high] = PERSONA_PRIORS[parameter].range;
        expect(values[parameter]).toBeGreaterThanOrEqual(low);
        expect(values[parameter]).toBeLessThanOrEqual(high);
      }
    }
  });

  it('folds a step back into [0, 1] at either wall', () => {
    expect([-0.2, 1.3, 0.4, 2.5, -1.25].map(reflect).map((x) => Number(x.toFixed(12)))).toEqual([
      0.2, 0.7, 0.4, 0.5, 0.75,
    ]);
    const rng = stream({ sweepSeed: 0, scenario: 'test', runSeed: 0 }, 'step', 0);
    const point = Array.from({ length: DIMENSIONS }, () => 0.99);
    const moved = stepFrom(
      point,
      Array.from({ length: DIMENSIONS }, () => 0.5),
      rng,
    );
    expect(moved.every((x) => x >= 0 && x <= 1)).toBe(true);
    expect(moved).not.toEqual(point);
  });
});
