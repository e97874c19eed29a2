/**
 * A 2×2 table of counts, rows first, as R's `matrix(..., byrow = TRUE)`:
 * `[[successesA, failuresA], [successesB, failuresB]]`.
 */
export type Table2x2 = readonly [readonly [number, number], readonly [number, number]];

// R's fisher.test treats probabilities within this relative distance of the observed
// table's as equal to it, so rounding in the log-factorials cannot drop a tied table.
const RELATIVE_TOLERANCE = 1 + 1e-7;

/**
 * Two-sided p-value of Fisher's exact test for a 2×2 table: the total probability, under
 * the hypergeometric distribution with the table's margins fixed, of every table no more
 * likely than the observed one (R `fisher.test`, SciPy `fisher_exact`).
 *
 * @example
 * fisherExact([[3, 1], [1, 3]]); // 0.4857 (34/70)
 */
export function fisherExact(table: Table2x2): number {
  const [[a, b], [c, d]] = table;
  for (const count of [a, b, c, d]) {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new RangeError(`fisherExact needs whole counts ≥ 0; got ${count}`);
  }
  const row1 = a + b;
  const col1 = a + c;
  const n = a + b + c + d;
  // The top-left cell ranges over [lo, hi] with the margins fixed.
  const lo = Math.max(0, col1 - (c + d));
  const hi = Math.min(row1, col1);
  if (lo === hi) return 1;

  const logFactorial = logFactorials(n);
  const lf = (k: number) => logFactorial[k] ?? Number.NaN;
  // log P(x) up to a constant that cancels when normalising: −log(x! (row1−x)! (col1−x)! (n−row1−col1+x)!)
  const logP = new Float64Array(hi - lo + 1);
  let max = -Infinity;
  for (let x = lo; x <= hi; x++) {
    const value = -(lf(x) + lf(row1 - x) + lf(col1 - x) + lf(n - row1 - col1 + x));
    logP[x - lo] = value;
    if (value > max) max = value;
  }
  let total = 0;
  for (let i = 0; i < logP.length; i++) {
    const p = Math.exp((logP[i] ?? 0) - max);
    logP[i] = p;
    total += p;
  }
  const observed = (logP[a - lo] ?? 0) * RELATIVE_TOLERANCE;
  let tail = 0;
  for (const p of logP) if (p <= observed) tail += p;
  return Math.min(1, tail / total);
}

function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = (table[k - 1] ?? 0) + Math.log(k);
  return table;
}
