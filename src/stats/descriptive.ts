import { quantileSorted } from 'simple-statistics';

/** Median, p95, max and mean of one metric. */
export interface Distribution {
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

/**
 * Quantiles use linear interpolation between order statistics (numpy's default,
 * R type 7), via simple-statistics. Values are rounded to 2 decimals so summaries
 * serialise identically everywhere.
 */
export function describe(values: ArrayLike<number>): Distribution {
  if (values.length === 0) return { median: 0, p95: 0, max: 0, mean: 0 };
  // A numeric sort of a typed copy: Array.prototype.sort would compare as strings.
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    median: round2(quantileSorted(sorted as unknown as number[], 0.5)),
    p95: round2(quantileSorted(sorted as unknown as number[], 0.95)),
    max: sorted[sorted.length - 1] ?? 0,
    mean: round2(sum / sorted.length),
  };
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
