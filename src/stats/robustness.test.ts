import { describe, expect, it } from 'vitest';
import { stream } from '../random/streams.js';
import type { MemberRuns, Stratum } from './member-effects.js';
import { assessRobustness, ROBUST_MIN_MEMBERS, type RobustnessLabel } from './robustness.js';

/**
 * A synthetic sweep: `members` models, `seeds` paired runs each. Member m succeeds under A
 * with a rate of its own (0.3 to 0.7: the models differ) and under B with that rate plus
 * `effect(m)`. Draws for A and B are independent (the noisiest case: real paired runs
 * share faults). Seeded: the same replicate is the same data.
 */
function syntheticSweep(replicate: number, members: number, seeds: number, effect: (m: number) => number): Stratum {
  const rng = stream({ sweepSeed: replicate, scenario: 'synthetic', runSeed: 0 }, 'robustness-test', 0);
  const runs: MemberRuns[] = [];
  for (let m = 0; m < members; m++) {
    const rateA = 0.3 + (0.4 * m) / Math.max(1, members - 1);
    const rateB = rateA + effect(m);
    const a = Array.from({ length: seeds }, () => (rng.chance(rateA) ? 1 : 0));
    const b = Array.from({ length: seeds }, () => (rng.chance(rateB) ? 1 : 0));
    runs.push({ member: m, a, b });
  }
  return { paired: true, members: runs };
}

function labels(effect: (m: number) => number, members = 30, seeds = 16, replicates = 200) {
  const counts: Record<RobustnessLabel, number> = {
    robust: 0,
    'depends-on-model': 0,
    'sign-not-established': 0,
    'no-clear-difference': 0,
    'too-few-models': 0,
    'one-model': 0,
  };
  for (let r = 0; r < replicates; r++) {
    const result = assessRobustness([syntheticSweep(r, members, seeds, effect)]);
    if (result !== undefined) counts[result.label] += 1;
  }
  return counts;
}

describe('assessRobustness on synthetic ensembles (200 seeded sweeps each)', () => {
  it('(a) a constant effect with seed noise only is mostly robust, and "depends on the model" stays at the test level', () => {
    // +0.15 for every member. τ² comes out above 0 from seed noise in many of these sweeps,
    // widening the prediction interval: those are "sign not established", never robust, and
    // the heterogeneity test keeps "depends on the model" at its 5% level.
    const counts = labels(() => 0.15);
    expect(counts.robust).toBeGreaterThanOrEqual(150);
    expect(counts.robust + counts['sign-not-established']).toBeGreaterThanOrEqual(188);
    expect(counts['depends-on-model']).toBeLessThanOrEqual(12);
  });

  it('(a′) a small constant effect (+0.08) is never called "depends on the model" more than the test level allows', () => {
    const counts = labels(() => 0.08);
    expect(counts['depends-on-model']).toBeLessThanOrEqual(12);
  });

  it('(b) +0.2 on half the members and −0.2 on the other half depends on the model', () => {
    const counts = labels((m) => (m % 2 === 0 ? 0.2 : -0.2));
    expect(counts['depends-on-model']).toBeGreaterThanOrEqual(190);
    expect(counts.robust).toBe(0);
  });

  it('(c) zero effect: no clear difference', () => {
    const counts = labels(() => 0);
    // About 5% of sweeps have a pooled interval that misses 0 and about 5% a significant heterogeneity test.
    expect(counts['no-clear-difference']).toBeGreaterThanOrEqual(172);
    expect(counts.robust).toBeLessThanOrEqual(14);
  });

  it('a sweep without an ensemble is one model: robustness cannot be assessed, significance still says what seeds say', () => {
    const one = assessRobustness([syntheticSweep(1, 1, 300, () => 0.3)]);
    expect(one?.label).toBe('one-model');
    expect(one?.members).toBe(1);
    expect(one?.significant).toBe(true);
    expect(one?.predictionLow).toBeNull();
    const two = assessRobustness([syntheticSweep(1, 2, 150, () => 0.3)]);
    expect(two?.label).toBe('one-model');
  });

  it('one seed per member cannot tell seed noise from model differences, and says what the seeds say', () => {
    const one = assessRobustness([syntheticSweep(1, 30, 1, () => 0.3)])!;
    expect(one.label).toBe('one-model');
    // The seeds' paired interval, as if one model had played them all: never of zero width.
    expect(one.high - one.low).toBeGreaterThan(0.1);
    const ten: Stratum = {
      paired: true,
      members: Array.from({ length: 10 }, (_, m) => ({ member: m, a: [0], b: [m < 6 ? 1 : 0] })),
    };
    // Six of ten pairs discordant for B: +0.6, with a paired t-interval (t(9) = 2.262, sd 0.516).
    const byHand = assessRobustness([ten])!;
    expect(byHand.pooled).toBeCloseTo(0.6, 12);
    expect(byHand.low).toBeCloseTo(0.6 - 2.2622 * (Math.sqrt(0.6 * 0.4 * (10 / 9)) / Math.sqrt(10)), 3);
  });
});

describe('the label rule: robust only when the sign holds for a new model', () => {
  const sweeps = (effect: (m: number) => number, members: number, replicates = 100) =>
    Array.from({ length: replicates }, (_, r) => {
      const stratum = syntheticSweep(r, members, 16, effect);
      return { stratum, result: assessRobustness([stratum])! };
    });

  it('an ensemble of 3 to 9 members is never robust, however large and clear the effect: too few models', () => {
    for (const members of [3, 5, 9]) {
      for (const { result } of sweeps(() => 0.4, members, 50)) {
        expect(result.label).toBe('too-few-models');
        // The intervals are still computed and shown; only the label is withheld.
        expect(result.predictionLow).not.toBeNull();
        expect(result.borderline).toBe(false);
      }
    }
    expect(ROBUST_MIN_MEMBERS).toBe(10);
    expect(
      sweeps(() => 0.4, ROBUST_MIN_MEMBERS, 20).filter(({ result }) => result.label === 'robust').length,
    ).toBeGreaterThan(15);
  });

  it('a prediction interval crossing 0 is never robust, even when the pooled effect is significant', () => {
    const all = [
      ...sweeps(() => 0.08, 30),
      ...sweeps(() => 0.15, 12),
      ...sweeps((m) => (m % 3 === 0 ? -0.1 : 0.25), 30),
    ];
    const crossing = all.filter(
      ({ result }) => result.significant && (result.predictionLow ?? 0) <= 0 && (result.predictionHigh ?? 0) >= 0,
    );
    // The cases the old rule ("or not heterogeneous") called robust are there to be judged.
    expect(crossing.length).toBeGreaterThan(20);
    for (const { result } of crossing) {
      expect(result.label).not.toBe('robust');
      expect(result.label).toBe(result.heterogeneityP < 0.05 ? 'depends-on-model' : 'sign-not-established');
    }
    for (const { result } of all.filter(({ result }) => result.label === 'robust')) {
      expect(result.significant).toBe(true);
      expect((result.predictionLow ?? 0) > 0 || (result.predictionHigh ?? 0) < 0).toBe(true);
    }
  });

  it('a label that leaving out one member would change is borderline, and names that member', () => {
    const found = sweeps(() => 0.12, 20).filter(({ result }) => result.borderline);
    expect(found.length).toBeGreaterThan(5);
    for (const { stratum, result } of found.slice(0, 5)) {
      expect(result.flippedBy.length).toBeGreaterThan(0);
      for (const member of result.flippedBy) {
        // Recomputed from scratch without that member (19 members: still labelled), the label differs.
        const without = assessRobustness([
          { ...stratum, members: stratum.members.filter((runs) => runs.member !== member) },
        ]);
        expect(without?.label).not.toBe(result.label);
      }
    }
  });

  it('a clear constant effect over 20 members is robust and not borderline: no one member decides it', () => {
    const clear = sweeps(() => 0.45, 20, 10);
    for (const { stratum, result } of clear) {
      expect(result).toMatchObject({ label: 'robust', borderline: false, flippedBy: [] });
      for (const { member } of stratum.members) {
        const without = assessRobustness([
          { ...stratum, members: stratum.members.filter((runs) => runs.member !== member) },
        ]);
        expect(without?.label).toBe('robust');
      }
    }
  });
});

describe('assessRobustness by hand', () => {
  it('three members with paired differences (the memberEffects example) pool to 1/3: too few models to label', () => {
    // Member effects 0.5, −0.25, 0.75, each v = (2.5/9)/4 = 0.069444, within df 9.
    // w = 14.4; fixed mean 1/3; Q = 14.4 · (1/36 + 49/144 + 25/144) = 14.4 · 0.541667 = 7.8; C = 43.2 − 14.4 = 28.8.
    // τ² = (7.8 − 2) / 28.8 = 0.201389; w* = 1 / 0.270833 each, so μ̂ = 1/3 and SE² = 0.270833 / 3 = 0.090278.
    // CI = 1/3 ± t(2) · 0.300463 = [−0.959453, 1.626120]: includes 0.
    // F = 7.8 / 2 = 3.9 on (2, 9) df: p = 0.0603 ≥ 0.05, so not heterogeneous either.
    const result = assessRobustness([
      {
        paired: true,
        members: [
          { member: 0, a: [0, 1, 0, 1], b: [1, 1, 1, 1] },
          { member: 1, a: [1, 1, 1, 1], b: [1, 0, 1, 1] },
          { member: 2, a: [0, 0, 0, 0], b: [1, 1, 1, 0] },
        ],
      },
    ]);
    expect(result?.label).toBe('too-few-models');
    expect(result?.borderline).toBe(false);
    expect(result?.pooled).toBeCloseTo(1 / 3, 12);
    expect(result?.low).toBeCloseTo(-0.9594529198022324, 10);
    expect(result?.high).toBeCloseTo(1.6261195864688989, 10);
    expect(result?.tau).toBeCloseTo(Math.sqrt(0.20138888888888884), 12);
    expect(result?.heterogeneityP).toBeCloseTo(0.060283647918127604, 10);
    expect([result?.rawMin, result?.rawMax]).toEqual([-0.25, 0.75]);
    // Shrunk by τ² / (τ² + v) = 0.743590 towards 1/3.
    expect(result?.shrunkenMin).toBeCloseTo(-0.1004273504273504, 12);
    expect(result?.shrunkenMax).toBeCloseTo(0.6431623931623931, 12);
  });

  it('one member: a paired t-interval on the seeds, t(n − 1)', () => {
    // d = 1, 0, 1, 1, 0, 1, 1, 1, 0, 1: mean 0.7, s² = 0.233333, SE = √(0.023333) = 0.152753; t(9) = 2.262157.
    const d = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
    const result = assessRobustness([{ paired: true, members: [{ member: 0, a: d.map(() => 0), b: d }] }]);
    expect(result?.label).toBe('one-model');
    expect(result?.pooled).toBeCloseTo(0.7, 12);
    expect(result?.low).toBeCloseTo(0.7 - 2.262157162798205 * Math.sqrt((0.7 * 0.3 * (10 / 9)) / 10), 10);
    expect(result?.significant).toBe(true);
  });

  it('no members with runs under both arms: nothing to say', () => {
    expect(assessRobustness([{ paired: true, members: [] }])).toBeUndefined();
  });
});
