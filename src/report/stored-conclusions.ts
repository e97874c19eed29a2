import type { StoredConclusions, StoredRobustness } from '../results/summary-schema.js';
import { HETEROGENEITY_ALPHA, ROBUST_MIN_MEMBERS, type Robustness } from '../stats/robustness.js';
import type { RunConclusions } from './run-conclusions.js';

/** A robustness as summary.json holds it. */
function storedRobustness(r: Robustness): StoredRobustness {
  return {
    label: r.label,
    borderline: r.borderline,
    flipped_by: [...r.flippedBy],
    members: r.members,
    pooled: r.pooled,
    low: r.low,
    high: r.high,
    significant: r.significant,
    prediction_low: r.predictionLow,
    prediction_high: r.predictionHigh,
    tau: r.tau,
    heterogeneity_p: r.heterogeneityP,
  };
}

/**
 * The run's conclusions as summary.json holds them (results/summary-schema.ts owns the
 * shape): the same labels, intervals and recommendation the terminal, Markdown and HTML
 * state, so a program reads what a person reads.
 *
 * @example
 * extendSummary(dir, summary, { conclusions: storedConclusions(await readRunConclusions(dir, summary)) });
 */
export function storedConclusions({ answer, effects }: RunConclusions): StoredConclusions {
  const { mix } = answer;
  const without = mix.withoutShowcases;
  return {
    baseline: answer.baseline,
    members: answer.members,
    rule: { robust_min_members: ROBUST_MIN_MEMBERS, heterogeneity_alpha: HETEROGENEITY_ALPHA },
    cells: [...effects.values()].map((effect) => ({
      scenario: effect.scenario,
      arm: effect.arm,
      success: storedRobustness(effect.success),
    })),
    arms: answer.arms.map((arm) => ({
      arm: arm.arm,
      rank: arm.rank,
      success_rate: arm.rightOutcome.rate,
      success: arm.vsBaseline === null ? null : storedRobustness(arm.vsBaseline.success),
    })),
    recommendation: {
      arm: answer.arms[0]?.arm ?? answer.baseline,
      best: mix.best.map((count) => ({ arm: count.arm, best: count.best, tied_best: count.tiedBest })),
      all_tied: [...mix.allTied],
      showcases: mix.showcases.map((showcase) => ({ ...showcase, guards: [...showcase.guards] })),
      without_showcases:
        without === undefined
          ? null
          : {
              scenarios: [...without.scenarios],
              arm: without.top,
              success_rate: without.rate,
              success: without.gain === null ? null : storedRobustness(without.gain),
            },
      leave_one_out: mix.leaveOneOut.map((change) => ({ scenario: change.scenario, arm: change.top })),
    },
  };
}
