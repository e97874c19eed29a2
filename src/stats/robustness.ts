import { memberEffects, type Stratum } from './member-effects.js';
import { type RandomEffects, randomEffects } from './random-effects.js';

/**
 * How a difference between two arms holds across the models of a persona ensemble. Each
 * label says one thing, and only one label can hold:
 * - `robust`: at least `ROBUST_MIN_MEMBERS` members, the pooled 95% interval excludes 0,
 *   and so does the 95% prediction interval of a new member's effect: the sign holds for
 *   a model drawn from the ensemble;
 * - `depends-on-model`: the prediction interval crosses 0 and the members' effects differ
 *   beyond seed noise (F test, p < `HETEROGENEITY_ALPHA`): a new member's effect could have
 *   either sign, because the models differ;
 * - `sign-not-established`: the pooled effect is significant but the prediction interval
 *   crosses 0, and the members do not differ beyond seed noise: the average is known, a
 *   new model's sign is not;
 * - `no-clear-difference`: the pooled interval includes 0 and the members agree within seed noise;
 * - `too-few-models`: 3 to `ROBUST_MIN_MEMBERS` − 1 members: intervals are computed and
 *   shown, but the spread between models is too poorly estimated to label;
 * - `one-model`: fewer than 3 members (a sweep without an ensemble is one), or one seed per
 *   member, so robustness across models cannot be assessed; `significant` still says what
 *   the seeds say.
 */
export const ROBUSTNESS_LABELS = [
  'robust',
  'depends-on-model',
  'sign-not-established',
  'no-clear-difference',
  'too-few-models',
  'one-model',
] as const;
export type RobustnessLabel = (typeof ROBUSTNESS_LABELS)[number];

/** The labels that judge how a difference holds across models: an ensemble of at least `ROBUST_MIN_MEMBERS`. */
export type AssessedLabel = Exclude<RobustnessLabel, 'too-few-models' | 'one-model'>;

/** Significance level of the heterogeneity test behind `depends-on-model`. */
export const HETEROGENEITY_ALPHA = 0.05;

/** Members needed for a prediction interval (t with k − 2 degrees of freedom). */
export const MIN_MEMBERS = 3;

/**
 * Members needed for any label but `too-few-models` / `one-model`. Below it τ² (the spread
 * between models) rests on so few numbers that a prediction interval excluding 0 says more
 * about luck than about models: with 3 members a "robust" gain had a new-model interval of
 * [−35, +8] points.
 */
export const ROBUST_MIN_MEMBERS = 10;

/** The difference B − A pooled across members, and how it holds across them. */
export interface Robustness {
  readonly label: RobustnessLabel;
  /**
   * Leave-one-member-out: dropping some single member changes the label. Judged for the
   * assessed labels only (the member threshold on the whole ensemble); false otherwise.
   */
  readonly borderline: boolean;
  /** The members (ensemble indices) whose leaving out changes the label; empty unless borderline. */
  readonly flippedBy: readonly number[];
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
 *   one-model            if fewer than 3 members, or no seed noise to estimate
 *   too-few-models       else if fewer than ROBUST_MIN_MEMBERS members
 *   robust               else if significant and the prediction interval excludes 0
 *   depends-on-model     else if heterogeneous (F test, p < 0.05)
 *   sign-not-established else if significant
 *   no-clear-difference  otherwise
 *
 * "Robust" claims the sign holds for a new model, so it needs exactly that: the prediction
 * interval, never "we could not tell the models apart". Then each member is left out in
 * turn and the label recomputed from the other k − 1 estimates (k re-poolings of k numbers;
 * the seed-noise variances stay as estimated from all members): a label that one member
 * decides is `borderline`.
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
  const label: RobustnessLabel = !assessable
    ? 'one-model'
    : k < ROBUST_MIN_MEMBERS
      ? 'too-few-models'
      : verdict(pooledModel);
  const flippedBy =
    assessable && k >= ROBUST_MIN_MEMBERS
      ? effects.members.filter((_, left) => {
          const others = effects.estimates.filter((_, m) => m !== left);
          return verdict(randomEffects(others, { withinDf: effects.withinDf })) !== label;
        })
      : [];
  const shrunken = assessable ? pooledModel.shrunken : effects.effects;
  return {
    label,
    borderline: flippedBy.length > 0,
    flippedBy,
    members: k,
    pooled: pooledModel.pooled,
    low: pooledModel.low,
    high: pooledModel.high,
    significant: excludes0(pooledModel.low, pooledModel.high),
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

const excludes0 = (low: number | null, high: number | null) => low !== null && high !== null && (low > 0 || high < 0);

/** The label of a pooling of at least `ROBUST_MIN_MEMBERS` members: what its intervals and its heterogeneity test say. */
function verdict(pooled: RandomEffects): AssessedLabel {
  const significant = excludes0(pooled.low, pooled.high);
  if (significant && excludes0(pooled.predictionLow, pooled.predictionHigh)) return 'robust';
  if (pooled.heterogeneityP < HETEROGENEITY_ALPHA) return 'depends-on-model';
  return significant ? 'sign-not-established' : 'no-clear-difference';
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
