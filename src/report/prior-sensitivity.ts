import type { StoredSensitivity } from '../results/summary-schema.js';
import type { Robustness, RobustnessLabel } from '../stats/robustness.js';
import type { ScenarioEffect } from './recommendation.js';
import type { RunConclusions } from './run-conclusions.js';

/** An edge of the prior ranges (model/simulated/persona-priors.ts PriorEdge). */
type PriorEdge = 'low' | 'high';

/** A conclusion's sign: the pooled interval lies above 0, below it, or includes it. */
export type ConclusionSign = '+' | '-' | '0';

/** What one arm-vs-baseline difference (success gain, or change in harmful rate) concludes: its label and its sign. */
export interface CellConclusion {
  readonly label: RobustnessLabel;
  readonly sign: ConclusionSign;
  /** The pooled difference (0.1 = 10 points). */
  readonly pooled: number;
}

/** One conclusion in the main sweep and with the prior-only parameters at each edge. */
export interface ConclusionAtEdges {
  readonly main: CellConclusion;
  /** null: no paired runs at that edge. */
  readonly low: CellConclusion | null;
  readonly high: CellConclusion | null;
  /** The edges at which the label or the sign differs from the main sweep's. */
  readonly changesAt: readonly PriorEdge[];
  /** The assumptions it depends on: every moved parameter when it changes at an edge, else none. */
  readonly dependsOn: readonly string[];
}

/** One cell's success conclusion in the main sweep and at each edge. */
export interface CellSensitivity extends ConclusionAtEdges {
  readonly scenario: string;
  readonly arm: string;
}

/** One arm's harmful-rate conclusion against the baseline, pooled as the answer table pools it, in the main sweep and at each edge. */
export interface ArmHarmfulSensitivity extends ConclusionAtEdges {
  readonly arm: string;
}

/** How the run's conclusions hold with the prior-only parameters at their edges. */
export interface PriorSensitivity {
  /** The parameters moved, all together, with their values at each edge. */
  readonly parameters: ReadonlyArray<{ readonly parameter: string; readonly low: number; readonly high: number }>;
  /** Every arm-vs-baseline cell of the main sweep (success), in its order. */
  readonly cells: readonly CellSensitivity[];
  /** Every arm's change in harmful rate against the baseline, as the answer table states it, in its order. */
  readonly harmful: {
    readonly baseline: string;
    readonly arms: readonly ArmHarmfulSensitivity[];
  };
}

/** What the comparison reads of one sweep's conclusions. */
export interface ComparedConclusions {
  readonly baseline: string;
  /** Per scenario and arm, as `RunConclusions.effects`. */
  readonly effects: ReadonlyMap<string, ScenarioEffect>;
  /** Per arm but the baseline: its change in harmful rate, each scenario counting once (`ArmAnswer.vsBaseline.harmful`). */
  readonly harmful: ReadonlyMap<string, Robustness>;
}

/**
 * The part of a sweep's conclusions that `priorSensitivity` compares: kept for each edge
 * sweep, whose folder is removed once it is read.
 *
 * @example
 * const edge = comparedConclusions(await readRunConclusions(dir, summary));
 * edge.harmful.get('isolate')?.label; // 'depends-on-model'
 */
export function comparedConclusions(
  conclusions: Pick<RunConclusions, 'baseline' | 'effects' | 'answer'>,
): ComparedConclusions {
  const harmful = new Map<string, Robustness>();
  for (const arm of conclusions.answer.arms) if (arm.vsBaseline !== null) harmful.set(arm.arm, arm.vsBaseline.harmful);
  return { baseline: conclusions.baseline, effects: conclusions.effects, harmful };
}

/** The sign a conclusion states: only a significant pooled effect has one. */
export function conclusionOf(difference: Robustness): CellConclusion {
  const sign: ConclusionSign = !difference.significant ? '0' : difference.pooled > 0 ? '+' : '-';
  return { label: difference.label, sign, pooled: difference.pooled };
}

const key = (effect: Pick<ScenarioEffect, 'scenario' | 'arm'>) => `${effect.scenario}\u0000${effect.arm}`;

/**
 * Compares each cell's success conclusion (label and sign) in the main sweep with the same
 * cell re-run with the prior-only parameters at the low and at the high edge, and each
 * arm's harmful-rate conclusion against the baseline (the answer table's) the same way. A
 * conclusion whose label or sign changes at either edge depends on assumptions no
 * baseline tested: it names every moved parameter, since they were moved together and one
 * edge run cannot tell which of them did it.
 *
 * @example
 * priorSensitivity(comparedConclusions(main), { low, high }, parameters).harmful.arms
 *   .filter((arm) => arm.changesAt.length > 0);
 */
export function priorSensitivity(
  main: ComparedConclusions,
  edges: Readonly<Record<PriorEdge, ComparedConclusions>>,
  parameters: PriorSensitivity['parameters'],
): PriorSensitivity {
  const byKey = (effects: ReadonlyMap<string, ScenarioEffect>) =>
    new Map([...effects.values()].map((effect) => [key(effect), effect]));
  const low = byKey(edges.low.effects);
  const high = byKey(edges.high.effects);
  const names = parameters.map((entry) => entry.parameter);
  const cells = [...main.effects.values()].map(
    (effect): CellSensitivity => ({
      scenario: effect.scenario,
      arm: effect.arm,
      ...atEdges(effect.success, { low: low.get(key(effect))?.success, high: high.get(key(effect))?.success }, names),
    }),
  );
  const arms = [...main.harmful].map(
    ([arm, change]): ArmHarmfulSensitivity => ({
      arm,
      ...atEdges(change, { low: edges.low.harmful.get(arm), high: edges.high.harmful.get(arm) }, names),
    }),
  );
  return { parameters, cells, harmful: { baseline: main.baseline, arms } };
}

function atEdges(
  main: Robustness,
  edges: Readonly<Record<PriorEdge, Robustness | undefined>>,
  names: readonly string[],
): ConclusionAtEdges {
  const conclusion = conclusionOf(main);
  const at = {
    low: edges.low === undefined ? null : conclusionOf(edges.low),
    high: edges.high === undefined ? null : conclusionOf(edges.high),
  };
  // A conclusion missing at an edge (no runs paired there) is a change too: it is gone.
  const changesAt = (['low', 'high'] as const).filter(
    (edge) => at[edge] === null || at[edge].label !== conclusion.label || at[edge].sign !== conclusion.sign,
  );
  return { main: conclusion, ...at, changesAt, dependsOn: changesAt.length > 0 ? names : [] };
}

/** The findings as summary.json holds them (results/summary-schema.ts owns the shape). */
export function storedSensitivity(sensitivity: PriorSensitivity): StoredSensitivity {
  const stored = (at: ConclusionAtEdges) => ({
    main: { ...at.main },
    low: at.low === null ? null : { ...at.low },
    high: at.high === null ? null : { ...at.high },
    changes_at: [...at.changesAt],
    depends_on: [...at.dependsOn],
  });
  return {
    parameters: sensitivity.parameters.map((entry) => ({ ...entry })),
    cells: sensitivity.cells.map((cell) => ({ scenario: cell.scenario, arm: cell.arm, ...stored(cell) })),
    harmful: {
      baseline: sensitivity.harmful.baseline,
      arms: sensitivity.harmful.arms.map((arm) => ({ arm: arm.arm, ...stored(arm) })),
    },
  };
}
