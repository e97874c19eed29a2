// Distributions of a (scenario, arm) cell cut into a few dozen bins, so a chart of a
// 100,000-run sweep carries bins, never runs.

/** Mantissas of the bin edges in each decade: about ten bins a decade, at round numbers. */
const MANTISSAS = [1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8] as const;

/**
 * Upper edges of bins for whole-number counts from 0 to `max`, each bin holding the
 * counts above the previous edge up to its own: one bin per value up to 10 (3 calls is
 * not 4), then about ten a decade at round numbers (12, 15, 20, 25, 30, 40, ...). Round
 * caps (a budget of 5, 15 or 40 calls, a ceiling of 250) end a bin, so a capped arm's
 * bars stop at its cap.
 *
 * @example
 * countEdges(14) // [0, 1, 2, ..., 10, 12, 15]
 */
export function countEdges(max: number): number[] {
  const edges: number[] = [];
  for (let value = 0; value <= Math.min(10, max); value++) edges.push(value);
  for (let decade = 10; edges.at(-1)! < max; decade *= 10) {
    for (const mantissa of MANTISSAS) {
      const edge = Math.floor(mantissa * decade);
      if (edge > edges.at(-1)!) edges.push(edge);
      if (edge >= max) break;
    }
  }
  return edges;
}

/**
 * Upper edges of log-spaced bins, about ten a decade at round numbers, for values from
 * `min` (at least 1) to `max`: for token counts that span 500 to 3,000,000. The first edge
 * is the last one below `min`, so every value has a bin with an edge below it.
 */
export function logEdges(min: number, max: number): number[] {
  const low = Math.max(1, min);
  const edges: number[] = [];
  for (let decade = 10 ** (Math.floor(Math.log10(low)) - 1); edges.length === 0 || edges.at(-1)! < max; decade *= 10) {
    for (const mantissa of MANTISSAS) {
      edges.push(mantissa * decade);
      if (mantissa * decade >= max) break;
    }
  }
  const first = edges.findIndex((edge) => edge >= low);
  return edges.slice(Math.max(0, first - 1));
}

/** One bin: the values in (previous edge, `upper`], where it is drawn, and how many runs fell in it. */
export interface Bin {
  /** The smallest and largest value the bin holds (for whole counts) or its edges. */
  readonly lower: number;
  readonly upper: number;
  /** Where the bar is drawn: whole counts get ±0.5 around the values they hold. */
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

export interface BinOptions {
  /** Whole-number data: a bin holds the integers above the previous edge up to its own. @default false */
  readonly whole?: boolean;
}

/**
 * Counts sorted values into right-closed bins (previous edge, edge]; the first bin holds
 * everything up to its edge, values above the last edge go in the last bin. Empty bins
 * are left out.
 */
export function histogram(sorted: ArrayLike<number>, edges: readonly number[], options: BinOptions = {}): Bin[] {
  const bins: Bin[] = [];
  let at = 0;
  for (let i = 0; i < edges.length; i++) {
    const upper = edges[i]!;
    const last = i + 1 === edges.length;
    const from = at;
    while (at < sorted.length && (last || sorted[at]! <= upper)) at += 1;
    if (at === from) continue;
    const previous = i === 0 ? undefined : edges[i - 1]!;
    if (options.whole === true) {
      const lower = previous === undefined ? sorted[from]! : previous + 1;
      const top = last ? Math.max(upper, sorted[at - 1]!) : upper;
      bins.push({ lower, upper: top, start: lower - 0.5, end: top + 0.5, count: at - from });
    } else {
      const lower = previous ?? sorted[from]!;
      const top = last ? Math.max(upper, sorted[at - 1]!) : upper;
      bins.push({ lower, upper: top, start: lower, end: top, count: at - from });
    }
  }
  return bins;
}

/**
 * The share of runs with a value of at least x, at each x given (the survival function,
 * 1 − CDF, up to the largest value): how fat the tail is, readable on a log scale.
 */
export function survival(
  sorted: ArrayLike<number>,
  points: readonly number[],
): Array<{ readonly at: number; readonly share: number }> {
  const out: Array<{ at: number; share: number }> = [];
  const n = sorted.length;
  let below = 0;
  for (const x of points) {
    while (below < n && sorted[below]! < x) below += 1;
    if (below === n) break;
    out.push({ at: x, share: (n - below) / n });
  }
  return out;
}

/** A numerically sorted copy (typed arrays sort numerically; plain arrays would not). */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}
