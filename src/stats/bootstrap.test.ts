import { quantileSorted } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { stream, type Rng, type StreamKey } from '../random/streams.js';
import {
  bootstrapDifference,
  bootstrapDifferences,
  median,
  p95,
  quantileStatistic,
  type SortedStatistic,
} from './bootstrap.js';
import { describe as describeValues } from './descriptive.js';

const KEY: StreamKey = { sweepSeed: 0, scenario: 'bootstrap-test', runSeed: 0 };
const rng = (index = 0): Rng => stream(KEY, 'bootstrap', index);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The textbook bootstrap: draw indices, copy the values, sort, take the statistic. */
function naiveBootstrap(a: number[], b: number[], statistic: SortedStatistic, resamples: number, source: Rng) {
  const sortedA = Float64Array.from(a).sort();
  const sortedB = Float64Array.from(b).sort();
  const draw = (sorted: Float64Array) =>
    Float64Array.from(sorted, () => sorted[Math.floor(source.next() * sorted.length)] ?? 0).sort();
  const differences = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    const ra = draw(sortedA);
    const rb = draw(sortedB);
    differences[r] = statistic(rb) - statistic(ra);
  }
  differences.sort();
  const q = (p: number) => quantileSorted(differences as unknown as number[], p);
  return { estimate: statistic(sortedB) - statistic(sortedA), low: q(0.025), high: q(0.975) };
}

describe('median and p95', () => {
  it('use the quantile definition of describe()', () => {
    const values = [7, 1, 3, 10, 2, 8, 5, 4, 9, 6, 12, 11];
    const sorted = Float64Array.from(values).sort();
    expect(median(sorted)).toBe(describeValues(values).median);
    expect(p95(sorted)).toBe(describeValues(values).p95);
    // 1..12: index 0.95·11 = 10.45 → 11 + 0.45 = 11.45
    expect(p95(sorted)).toBeCloseTo(11.45, 12);
  });
});

describe('bootstrapDifference', () => {
  it('gives the same interval as resampling and sorting each resample, draw for draw', () => {
    const a = [3, 9, 1, 4, 4, 12, 7, 30, 2, 5, 5, 8];
    const b = [6, 2, 11, 14, 9, 3, 40, 10, 9, 7];
    for (const statistic of [median, p95]) {
      expect(bootstrapDifference(a, b, statistic, { resamples: 500, rng: rng(1) })).toEqual(
        naiveBootstrap(a, b, statistic, 500, rng(1)),
      );
    }
  });

  it('is deterministic for a given stream and moves with the stream', () => {
    const a = range(1, 200).map((x) => (x * 37) % 101);
    const b = range(1, 150).map((x) => (x * 53) % 97);
    const first = bootstrapDifference(a, b, p95, { rng: rng(2) });
    expect(bootstrapDifference(a, b, p95, { rng: rng(2) })).toEqual(first);
    const other = bootstrapDifference(a, b, p95, { rng: rng(3) });
    expect(other.estimate).toBe(first.estimate);
    expect([other.low, other.high]).not.toEqual([first.low, first.high]);
  });

  it('puts the estimate inside the interval', () => {
    const a = range(1, 300).map((x) => (x * x) % 113);
    const b = range(1, 300).map((x) => ((x * x) % 127) + 5);
    for (const statistic of [median, p95]) {
      const { estimate, low, high } = bootstrapDifference(a, b, statistic, { rng: rng(4) });
      expect(low).toBeLessThanOrEqual(estimate);
      expect(high).toBeGreaterThanOrEqual(estimate);
      expect(high).toBeGreaterThan(low);
    }
  });

  it('contains 0 for two identical large samples', () => {
    const sample = range(1, 5000).map((x) => (x * 7919) % 1009);
    const { estimate, low, high } = bootstrapDifference(sample, [...sample], median, { rng: rng(5) });
    expect(estimate).toBe(0);
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(0);
  });

  it('excludes 0 for clearly shifted samples', () => {
    // medians 50.5 (1..100) and 100.5 (51..150): the estimate is exactly 50
    const result = bootstrapDifference(range(1, 100), range(51, 150), median, { rng: rng(6) });
    expect(result.estimate).toBe(50);
    expect(result.low).toBeGreaterThan(0);
    expect(result.high).toBeGreaterThan(result.low);
    // the resampled medians of 100 values move by roughly ±10 each
    expect(result.low).toBeGreaterThan(25);
    expect(result.high).toBeLessThan(75);
  });

  it('reads every quantile from the counts exactly as from the sorted resample, at any size', () => {
    const quantiles = [0, 0.01, 0.37, 0.5, 0.95, 0.999, 1].map(quantileStatistic);
    for (const [a, b] of [
      [[5], [2, 9]],
      [
        [1, 2, 2, 3],
        [10, 0, 4, 4, 4, 8, 1],
      ],
      [range(1, 41).map((x) => (x * 13) % 17), range(1, 60).map((x) => x % 7)],
    ] as const) {
      const fast = bootstrapDifferences(a, b, quantiles, { resamples: 200, rng: rng(9) });
      expect(fast).toEqual(quantiles.map((q) => naiveBootstrap([...a], [...b], q, 200, rng(9))));
    }
  });

  it('lays the resample out for statistics other than quantiles', () => {
    const mean: SortedStatistic = (sorted) => sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
    const a = [3, 9, 1, 4, 4, 12, 7, 30];
    const b = [6, 2, 11, 14, 9, 3, 40];
    expect(bootstrapDifference(a, b, mean, { resamples: 300, rng: rng(10) })).toEqual(
      naiveBootstrap(a, b, mean, 300, rng(10)),
    );
  });

  it('is exact for constant samples', () => {
    expect(bootstrapDifference([4, 4, 4], [9, 9], p95, { resamples: 50, rng: rng(7) })).toEqual({
      estimate: 5,
      low: 5,
      high: 5,
    });
  });

  it('computes several statistics from one set of resamples', () => {
    const a = range(1, 100);
    const b = range(51, 150);
    const [byMedian, byP95] = bootstrapDifferences(a, b, [median, p95], { resamples: 300, rng: rng(8) });
    expect(byMedian).toEqual(naiveBootstrap(a, b, median, 300, rng(8)));
    expect(byP95).toEqual(naiveBootstrap(a, b, p95, 300, rng(8)));
  });

  it('rejects empty samples and a bad resample count', () => {
    expect(() => bootstrapDifference([], [1], median, { rng: rng() })).toThrow(RangeError);
    expect(() => bootstrapDifference([1], [1], median, { resamples: 0, rng: rng() })).toThrow(RangeError);
  });
});
