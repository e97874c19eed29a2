import { memberEffects, type Stratum } from './member-effects.js';
import { randomEffects } from './random-effects.js';

/**
 * How a difference between two arms holds across the models of a persona ensemble:
 * - `robust`: significant, and the same sign for a model drawn from the ensemble;
 * - `depends-on-model`: the members' effects differ beyond seed noise, and a new member's
 *   effect could have either sign;
 * - `no-clear-difference`: the pooled interval includes 0 and the members agree within seed noise;
 * - `one-model`: fewer than 3 members (a sweep without an ensemble is one), so robustness
 *   across models cannot be assessed; `significant` still says what the seeds say.
 */
export type RobustnessLabel = 'robust' | 'depends-on-model' | 'no-clear-difference' | 'one-model';

/** Significance level of the heterogeneity test behind `depends-on-model`. */
export const HETEROGENEITY_ALPHA = 0.05;

/** Members needed for a prediction interval (t with k − 2 degrees of freedom), hence for a robustness label. */
export const MIN_MEMBERS = 3;

/** The difference B − A pooled across members, and how it holds across them. */
export interface Robustness {
  readonly label: RobustnessLabel;
  /** Members with runs under both arms in every stratum. */
  readonly members: number;
  /** Pooled effect with its 95% interval (persona variation and seed noise; with one member, seed noise only). */
  readonly pooled: number;
  readonly low: number;
  readonly high: number;
  /** The 95% interval excludes 0. */
  readonly significant: boolean;
  /** 95% prediction interval of a new member's effect; null below 3 members. */
  readonly predictionLow: number | null;
  readonly predictionHigh: number | null;
  /** Between-member standard deviation of the true effects, √τ². */
  readonly tau: number;
  /** p of the test that members differ beyond seed noise; 1 below 2 members. */
  readonly heterogeneityP: number;
  /** Range of the members' raw effects (each from its own seeds). */
  readonly rawMin: number;
  readonly rawMax: number;
  /** Range of the members' effects shrunk towards the pooled effect (seed noise taken out). */
  readonly shrunkenMin: number;
  readonly shrunkenMax: number;
}

/**
 * Pools the member-level effects of B over A (see `memberEffects`) with a random-effects
 * model (see `randomEffects`) and labels the result:
 *
 *   significant   = the pooled 95% interval excludes 0
 *   heterogeneous = the members' effects differ beyond seed noise (F test, p < 0.05)
 *   robust              if significant and (the prediction interval excludes 0, or not heterogeneous)
 *   depends-on-model    else if heterogeneous
 *   no-clear-difference otherwise
 *
 * "Not heterogeneous" lets a significant effect be robust when its prediction interval
 * crosses 0 only because τ² was estimated above 0 from seed noise (with 16 seeds a member,
 * that happens about half the time under a constant effect); "depends on the model" is
 * claimed only when the members differ beyond what seed noise explains, so for a constant
 * effect it is claimed in at most 5% of sweeps.
 *
 * @example
 * assessRobustness([{ paired: true, members: runsByMember }]).label; // 'robust'
 */
export function assessRobustness(strata: readonly Stratum[]): Robustness | undefined {
  const effects = memberEffects(strata);
  const k = effects.members.length;
  if (k === 0) return undefined;
  // Seed noise that cannot be estimated (one run per member) cannot be told apart from model differences.
  const assessable = k >= MIN_MEMBERS && effects.withinDf > 0;
  const pooledModel = assessable ? randomEffects(effects.estimates, { withinDf: effects.withinDf }) : seedsOnly(strata);
  const significant = pooledModel.low > 0 || pooledModel.high < 0;
  const predictionExcludes0 =
    pooledModel.predictionLow !== null &&
    pooledModel.predictionHigh !== null &&
    (pooledModel.predictionLow > 0 || pooledModel.predictionHigh < 0);
  const heterogeneous = pooledModel.heterogeneityP < HETEROGENEITY_ALPHA;
  const label: RobustnessLabel = !assessable
    ? 'one-model'
    : significant && (predictionExcludes0 || !heterogeneous)
      ? 'robust'
      : heterogeneous
        ? 'depends-on-model'
        : 'no-clear-difference';
  const shrunken = assessable ? pooledModel.shrunken : effects.effects;
  return {
    label,
    members: k,
    pooled: pooledModel.pooled,
    low: pooledModel.low,
    high: pooledModel.high,
    significant,
    predictionLow: pooledModel.predictionLow,
    predictionHigh: pooledModel.predictionHigh,
    tau: Math.sqrt(pooledModel.tau2),
    heterogeneityP: assessable ? pooledModel.heterogeneityP : 1,
    rawMin: Math.min(...effects.effects),
    rawMax: Math.max(...effects.effects),
    shrunkenMin: Math.min(...shrunken),
    shrunkenMax: Math.max(...shrunken),
  };
}

/**
 * Too few members to tell persona variation from seed noise: every run weighs the same,
 * as if one model had played them all, and the interval is the seeds' (paired where the
 * arms were). Members with one seed each still give an interval this way, where their
 * own variances could not be estimated.
 */
function seedsOnly(strata: readonly Stratum[]) {
  const oneModel = memberEffects(
    strata.map((stratum) => ({
      paired: stratum.paired,
      members: [
        {
          member: 0,
          a: stratum.members.flatMap((runs) => Array.from(runs.a)),
          b: stratum.members.flatMap((runs) => Array.from(runs.b)),
        },
      ],
    })),
  );
  return randomEffects(oneModel.estimates, oneModel.withinDf > 0 ? { withinDf: oneModel.withinDf } : {});
}
