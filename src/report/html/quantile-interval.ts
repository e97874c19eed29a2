/** A quantile of a sample with its distribution-free 95% interval. */
export interface QuantileInterval {
  readonly low: number;
  readonly high: number;
}

/**
 * The order-statistic (binomial) 95% confidence interval for the `q` quantile of a
 * sorted sample: [x(l), x(u)] with the ranks chosen so that the number of values below
 * the true quantile, Binomial(n, q), falls in [l, u) with at least 95% probability.
 * Exact and without resampling, so the same sample always gives the same interval. With
 * few runs the upper rank runs out and the interval reaches the largest value.
 *
 * @example
 * quantileInterval(sortedToolCalls, 0.95) // { low: 58, high: 90 }
 */
export function quantileInterval(sorted: ArrayLike<number>, q: number, level = 0.95): QuantileInterval {
  const n = sorted.length;
  if (n === 0) return { low: 0, high: 0 };
  const alpha = (1 - level) / 2;
  // Binomial(n, q) pmf in log space from k = 0 (q^n and (1 − q)^n underflow for large n).
  const logRatio = Math.log(q / (1 - q));
  const logPmf = new Float64Array(n + 1);
  logPmf[0] = n * Math.log1p(-q);
  let top = logPmf[0];
  for (let k = 0; k < n; k++) {
    logPmf[k + 1] = logPmf[k]! + Math.log((n - k) / (k + 1)) + logRatio;
    if (logPmf[k + 1]! > top) top = logPmf[k + 1]!;
  }
  let total = 0;
  for (let k = 0; k <= n; k++) total += Math.exp(logPmf[k]! - top);
  // F(k) = P(B ≤ k); lower rank l: largest with F(l − 1) ≤ α; upper rank u: smallest with F(u − 1) ≥ 1 − α.
  let cdf = 0;
  let lowRank = 1;
  let highRank = n;
  for (let k = 0; k <= n; k++) {
    cdf += Math.exp(logPmf[k]! - top) / total;
    if (cdf <= alpha) lowRank = k + 1;
    if (cdf >= 1 - alpha) {
      highRank = k + 1;
      break;
    }
  }
  const at = (rank: number) => sorted[Math.min(n, Math.max(1, rank)) - 1]!;
  return { low: at(lowRank), high: at(highRank) };
}
