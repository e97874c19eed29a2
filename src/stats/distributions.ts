import { gammaln } from 'simple-statistics';

// Student's t and Snedecor's F, from the regularized incomplete beta function: what the
// random-effects intervals and the heterogeneity test need, and nothing more.

const EPSILON = 1e-15;
const TINY = 1e-300;

/** Lentz's continued fraction for the incomplete beta (Numerical Recipes, `betacf`), converging for x < (a+1)/(a+b+2). */
function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    const even = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + even * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + even / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + odd / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) return h;
  }
  throw new RangeError(`the incomplete beta did not converge for x=${x}, a=${a}, b=${b}`);
}

/**
 * The regularized incomplete beta function I_x(a, b), to about 1e-14.
 *
 * @example
 * regularizedBeta(0.5, 2, 3); // 0.6875
 */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedBeta needs a, b > 0; got ${a}, ${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedBeta needs 0 ≤ x ≤ 1; got ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log1p(-x));
  // The fraction converges fast on one side of the mean; the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) covers the other.
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/**
 * P(T ≤ t) for Student's t with `df` degrees of freedom (df may be fractional).
 *
 * @example
 * studentTCdf(2.045229642132703, 29); // 0.975
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`studentTCdf needs df > 0; got ${df}`);
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The p-quantile of Student's t with `df` degrees of freedom: bisection on the CDF to
 * machine precision (60 halvings of a bracket that holds it), simple and exact enough.
 *
 * @example
 * studentTQuantile(0.975, 29); // 2.045229642132703
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile needs 0 < p < 1; got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile needs df > 0; got ${df}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-15 * high; i++) {
    const mid = (low + high) / 2;
    if (studentTCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/**
 * P(F ≥ f) for Snedecor's F with (d1, d2) degrees of freedom: the p-value of an F test.
 * d2 may be Infinity, where F·d1 is χ² with d1 degrees of freedom.
 *
 * @example
 * fSurvival(2.5, 4, 20); // 0.07559...
 */
export function fSurvival(f: number, d1: number, d2: number): number {
  if (!(d1 > 0 && d2 > 0)) throw new RangeError(`fSurvival needs d1, d2 > 0; got ${d1}, ${d2}`);
  if (!(f > 0)) return 1;
  if (d2 === Infinity) return chiSquareSurvival(f * d1, d1);
  return regularizedBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** P(X ≥ x) for χ² with k degrees of freedom, by the regularized upper incomplete gamma Q(k/2, x/2). */
function chiSquareSurvival(x: number, k: number): number {
  const a = k / 2;
  const z = x / 2;
  const front = Math.exp(-z + a * Math.log(z) - gammaln(a));
  if (z < a + 1) {
    // Series for the lower function P.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000 && Math.abs(term) > Math.abs(sum) * EPSILON; n++) {
      term *= z / (a + n);
      sum += term;
    }
    return 1 - front * sum;
  }
  // Continued fraction for Q (Lentz).
  let b = z + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return front * h;
}
