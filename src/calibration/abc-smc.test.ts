import { describe, expect, it } from 'vitest';
import { stream } from '../random/streams.js';
import { abcSmc, type Candidate, stepsFor } from './abc-smc.js';

/**
 * A toy simulator: one statistic, ten times the first coordinate plus noise drawn afresh
 * for every candidate (as a fresh block of run seeds gives). Only the first coordinate
 * is identified; every other one is free.
 */
async function toy(batch: readonly Candidate[]): Promise<number[]> {
  // Out of order on purpose: the sampler must not care when each result is ready.
  const results = await Promise.all(
    batch.map(async (candidate) => {
      await new Promise((done) => setTimeout(done, (candidate.index * 7) % 3));
      const noise = stream({ sweepSeed: 0, scenario: 'toy', runSeed: candidate.index }, 'noise', 0).next() - 0.5;
      return 10 * candidate.point[0]! + noise;
    }),
  );
  return results;
}

const near = (target: number) => (statistic: number) => Math.abs(statistic - target) / 0.2;

describe('abcSmc', () => {
  it('walks the tolerance down to 1 and keeps every particle within it', async () => {
    const result = await abcSmc({ particles: 40, seed: 1, evaluate: toy, distance: near(7) });
    expect(result.converged).toBe(true);
    expect(result.particles).toHaveLength(40);
    expect(result.particles.every((particle) => particle.distance <= 1)).toBe(true);
    const schedule = result.iterations.map((iteration) => iteration.epsilon);
    expect(schedule.at(-1)).toBe(1);
    expect([...schedule].sort((a, b) => b - a)).toEqual(schedule);
    // The identified coordinate is pinned near 0.7 (± tolerance and noise: 0.07); a free one is not.
    const first = result.particles.map((particle) => particle.point[0]!);
    expect(Math.min(...first)).toBeGreaterThan(0.629);
    expect(Math.max(...first)).toBeLessThan(0.771);
    const free = result.particles.map((particle) => particle.point[7]!);
    expect(Math.max(...free) - Math.min(...free)).toBeGreaterThan(0.6);
    expect(result.candidates).toBeGreaterThan(400);
    expect(new Set(result.particles.map((particle) => particle.index)).size).toBe(40 - result.duplicates);
  });

  it('gives the same particles for the same seed, and other ones for another seed', async () => {
    const run = (seed: number) => abcSmc({ particles: 12, seed, evaluate: toy, distance: near(3) });
    const [a, b, c] = await Promise.all([run(5), run(5), run(6)]);
    expect(b).toEqual(a);
    expect(c.particles.map((particle) => particle.point)).not.toEqual(a.particles.map((particle) => particle.point));
  });

  it('stops, unconverged, when the targets are out of reach', async () => {
    const result = await abcSmc({ particles: 12, seed: 1, evaluate: toy, distance: near(25) });
    expect(result.converged).toBe(false);
    expect(result.particles).toHaveLength(12);
    expect(result.iterations.length).toBeLessThan(60);
  });

  it('takes enough steps for a copy to move at least once with 99%', () => {
    expect(stepsFor(0.5)).toBe(7);
    expect(stepsFor(0.1)).toBe(20);
    expect(stepsFor(0.9)).toBe(2);
    expect(stepsFor(0)).toBe(20);
  });
});
