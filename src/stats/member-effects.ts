import type { MemberEstimate } from './random-effects.js';

/** One member's runs of one stratum (a scenario) under arm A and arm B, a value per run. */
export interface MemberRuns {
  readonly member: number;
  readonly a: ArrayLike<number>;
  readonly b: ArrayLike<number>;
}

/**
 * One stratum (a scenario): each member's runs under both arms. `paired`: run i of A and
 * run i of B share a seed (the same faults, the same member), so the analysis works on
 * their differences; otherwise A and B are independent samples of the member.
 */
export interface Stratum {
  readonly paired: boolean;
  readonly members: readonly MemberRuns[];
}

/** Per member, the effect B − A averaged over strata, with its seed-noise variance. */
export interface MemberEffects {
  /** Members present, with at least one run under each arm, in every stratum; ascending. */
  readonly members: readonly number[];
  readonly estimates: readonly MemberEstimate[];
  /** Raw effects, the same as `estimates[m].effect`, for ranges. */
  readonly effects: readonly number[];
  /** Degrees of freedom of the pooled within-member variance (0: it cannot be estimated). */
  readonly withinDf: number;
  /** Runs that went into the estimates, per arm. */
  readonly runs: number;
}

interface StratumNoise {
  /** Seed-noise variance of one run's value (paired: of one difference), pooled over members; per arm when unpaired. */
  readonly varianceA: number;
  readonly varianceB: number;
  readonly df: number;
}

/**
 * Member-level effects of B over A. In each stratum a member's effect is the mean paired
 * difference (or the difference of means, unpaired); its variance comes from a seed-noise
 * variance pooled over all members of the stratum (one-way ANOVA's within mean square),
 * divided by the member's runs. Pooling the noise, not taking each member's own: with 16
 * binary runs a member can show no spread at all, which would give it infinite weight,
 * and weights that track each member's own rate would bias the pooled effect. Over
 * several strata a member's effect is the plain mean of its stratum effects (each
 * scenario counts once), and the variances add up divided by the strata count squared.
 *
 * @example
 * memberEffects([{ paired: true, members: [{ member: 0, a: [0, 1], b: [1, 1] }, { member: 1, a: [0, 0], b: [1, 0] }] }]);
 */
export function memberEffects(strata: readonly Stratum[]): MemberEffects {
  if (strata.length === 0) throw new RangeError('memberEffects needs at least one stratum');
  const usable = (runs: MemberRuns) => runs.a.length > 0 && runs.b.length > 0;
  let common: number[] | undefined;
  for (const stratum of strata) {
    const present = new Set(stratum.members.filter(usable).map((runs) => runs.member));
    common = (common ?? [...present]).filter((member) => present.has(member));
  }
  const members = [...new Set(common)].sort((x, y) => x - y);
  const effects = members.map(() => 0);
  const variances = members.map(() => 0);
  let withinDf = 0;
  let runs = 0;
  const s = strata.length;
  for (const stratum of strata) {
    const byMember = new Map(stratum.members.map((entry) => [entry.member, entry]));
    const chosen = members.map((member) => byMember.get(member) as MemberRuns);
    const noise = stratumNoise(chosen, stratum.paired);
    withinDf += noise.df;
    chosen.forEach((entry, m) => {
      const nA = entry.a.length;
      const nB = entry.b.length;
      runs += Math.max(nA, nB);
      effects[m] = (effects[m] ?? 0) + (mean(entry.b) - mean(entry.a)) / s;
      const variance = stratum.paired ? noise.varianceA / nA : noise.varianceA / nA + noise.varianceB / nB;
      variances[m] = (variances[m] ?? 0) + variance / (s * s);
    });
  }
  return {
    members,
    estimates: members.map((_, m) => ({ effect: effects[m] ?? 0, variance: variances[m] ?? 0 })),
    effects,
    withinDf,
    runs,
  };
}

function stratumNoise(entries: readonly MemberRuns[], paired: boolean): StratumNoise {
  if (paired) {
    let squares = 0;
    let df = 0;
    for (const { a, b } of entries) {
      if (a.length !== b.length)
        throw new RangeError(`paired runs need as many runs under A as under B; got ${a.length} and ${b.length}`);
      const differences = Array.from({ length: a.length }, (_, i) => (b[i] ?? 0) - (a[i] ?? 0));
      squares += sumOfSquares(differences);
      df += differences.length - 1;
    }
    const variance = df > 0 ? squares / df : 0;
    return { varianceA: variance, varianceB: variance, df };
  }
  let squaresA = 0;
  let squaresB = 0;
  let dfA = 0;
  let dfB = 0;
  for (const { a, b } of entries) {
    squaresA += sumOfSquares(a);
    squaresB += sumOfSquares(b);
    dfA += a.length - 1;
    dfB += b.length - 1;
  }
  return { varianceA: dfA > 0 ? squaresA / dfA : 0, varianceB: dfB > 0 ? squaresB / dfB : 0, df: dfA + dfB };
}

function mean(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] ?? 0;
  return total / values.length;
}

/** Σ (x − x̄)². */
function sumOfSquares(values: ArrayLike<number>): number {
  const centre = mean(values);
  let total = 0;
  for (let i = 0; i < values.length; i++) total += ((values[i] ?? 0) - centre) ** 2;
  return total;
}
