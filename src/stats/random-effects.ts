import { fSurvival, studentTQuantile } from './distributions.js';

/** One member's effect estimate and the sampling variance of that estimate (seed noise). */
export interface MemberEstimate {
  readonly effect: number;
  /** Variance of `effect` from seed noise alone; > 0, or 0 for every member when there is no seed noise at all. */
  readonly variance: number;
}

export interface RandomEffectsOptions {
  /**
   * Degrees of freedom of the within-member variance estimate: the heterogeneity test
   * compares Q/(k−1) with F(k−1, withinDf). @default Infinity (Cochran's χ² test)
   */
  readonly withinDf?: number;
}

/** A random-effects pooling of member estimates: θ̂ₘ = μ + uₘ + eₘ, uₘ ~ N(0, τ²), eₘ ~ N(0, vₘ). */
export interface RandomEffects {
  /** Members pooled (k). */
  readonly members: number;
  /** μ̂, the pooled effect. */
  readonly pooled: number;
  /** Its standard error (Hartung–Knapp–Sidik–Jonkman, never below the DerSimonian–Laird one). */
  readonly standardError: number;
  /** 95% interval of μ: μ̂ ± t(k−1) · SE. With one member, μ̂ ± 1.96 · √v. */
  readonly low: number;
  readonly high: number;
  /** 95% prediction interval of a new member's effect, μ̂ ± t(k−2) · √(τ² + SE²); null below 3 members. */
  readonly predictionLow: number | null;
  readonly predictionHigh: number | null;
  /** τ², the between-member variance (DerSimonian–Laird, method of moments). */
  readonly tau2: number;
  /** Cochran's Q. */
  readonly q: number;
  /** p-value of "the members' effects differ by more than seed noise": Q/(k−1) against F(k−1, withinDf); 1 for one member. */
  readonly heterogeneityP: number;
  /** Each member's effect shrunk towards μ̂ by τ²/(τ² + vₘ) (empirical Bayes), in the input order. */
  readonly shrunken: readonly number[];
}

const Z975 = 1.959963984540054;

/**
 * Pools member estimates with a random-effects model: τ² by DerSimonian–Laird, μ̂ weighted
 * by 1/(vₘ + τ²), its interval by Hartung–Knapp–Sidik–Jonkman with t(k−1) (the variance
 * factor floored at 1, so the interval is never narrower than DerSimonian–Laird's), and
 * the prediction interval of Higgins, Thompson & Spiegelhalter (2009) with t(k−2).
 * Pure and exact: no resampling.
 *
 * @example
 * const pooled = randomEffects([{ effect: 0.2, variance: 0.01 }, { effect: 0.3, variance: 0.01 }, { effect: 0.1, variance: 0.01 }]);
 * pooled.pooled; // 0.2
 */
export function randomEffects(estimates: readonly MemberEstimate[], options: RandomEffectsOptions = {}): RandomEffects {
  const k = estimates.length;
  if (k === 0) throw new RangeError('randomEffects needs at least one member');
  for (const { effect, variance } of estimates) {
    if (!Number.isFinite(effect) || !Number.isFinite(variance) || variance < 0)
      throw new RangeError(`randomEffects needs finite effects and variances ≥ 0; got ${effect}, ${variance}`);
  }
  const withinDf = options.withinDf ?? Infinity;
  const noiseless = estimates.every((estimate) => estimate.variance === 0);
  if (!noiseless && estimates.some((estimate) => estimate.variance === 0))
    throw new RangeError('randomEffects needs every variance > 0, or every variance 0');
  const effects = estimates.map((estimate) => estimate.effect);

  if (k === 1) {
    const [only] = estimates as [MemberEstimate];
    const se = Math.sqrt(only.variance);
    const z = withinDf === Infinity ? Z975 : studentTQuantile(0.975, withinDf);
    return {
      members: 1,
      pooled: only.effect,
      standardError: se,
      low: only.effect - z * se,
      high: only.effect + z * se,
      predictionLow: null,
      predictionHigh: null,
      tau2: 0,
      q: 0,
      heterogeneityP: 1,
      shrunken: [only.effect],
    };
  }

  // Without seed noise every member's effect is exact: equal weights, τ² is their spread.
  const weights = noiseless ? estimates.map(() => 1) : estimates.map((estimate) => 1 / estimate.variance);
  const sumW = sum(weights);
  const fixed = sum(weights.map((w, m) => w * (effects[m] ?? 0))) / sumW;
  const q = sum(weights.map((w, m) => w * ((effects[m] ?? 0) - fixed) ** 2));
  let tau2: number;
  let heterogeneityP: number;
  if (noiseless) {
    tau2 = q / (k - 1);
    heterogeneityP = q > 0 ? 0 : 1;
  } else {
    const c = sumW - sum(weights.map((w) => w * w)) / sumW;
    tau2 = Math.max(0, (q - (k - 1)) / c);
    heterogeneityP = fSurvival(q / (k - 1), k - 1, withinDf);
  }

  const starWeights = estimates.map((estimate) => 1 / ((noiseless ? 0 : estimate.variance) + tau2 || 1));
  const sumStar = sum(starWeights);
  const pooled = sum(starWeights.map((w, m) => w * (effects[m] ?? 0))) / sumStar;
  const hk = sum(starWeights.map((w, m) => w * ((effects[m] ?? 0) - pooled) ** 2)) / (k - 1);
  // HKSJ scales the DerSimonian–Laird variance 1/Σw* by hk; below 1 it would narrow it, so it is floored at 1.
  const standardError = noiseless ? Math.sqrt(tau2 / k) : Math.sqrt(Math.max(1, hk) / sumStar);
  const t = studentTQuantile(0.975, k - 1);
  const spread = k >= 3 ? studentTQuantile(0.975, k - 2) * Math.sqrt(tau2 + standardError ** 2) : null;
  return {
    members: k,
    pooled,
    standardError,
    low: pooled - t * standardError,
    high: pooled + t * standardError,
    predictionLow: spread === null ? null : pooled - spread,
    predictionHigh: spread === null ? null : pooled + spread,
    tau2,
    q,
    heterogeneityP,
    shrunken: estimates.map((estimate) =>
      noiseless ? estimate.effect : pooled + (tau2 / (tau2 + estimate.variance)) * (estimate.effect - pooled),
    ),
  };
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
