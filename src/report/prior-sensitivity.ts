import type { StoredSensitivity } from '../results/summary-schema.js';
import type { Robustness, RobustnessLabel } from '../stats/robustness.js';
import type { ScenarioEffect } from './recommendation.js';

/** An edge of the prior ranges (model/simulated/persona-priors.ts PriorEdge). */
type PriorEdge = 'low' | 'high';

/** A conclusion's sign: the pooled interval lies above 0, below it, or includes it. */
export type ConclusionSign = '+' | '-' | '0';

/** What one arm-vs-baseline cell concludes about success: its label and its sign. */
export interface CellConclusion {
  readonly label: RobustnessLabel;
  readonly sign: ConclusionSign;
  /** The pooled success gain (0.1 = 10 points). */
  readonly pooled: number;
}

/** One cell's conclusion in the main sweep and with the prior-only parameters at each edge. */
export interface CellSensitivity {
  readonly scenario: string;
  readonly arm: string;
  readonly main: CellConclusion;
  readonly low: CellConclusion | null;
  readonly high: CellConclusion | null;
  /** The edges at which the label or the sign differs from the main sweep's. */
  readonly changesAt: readonly PriorEdge[];
  /** The assumptions it depends on: every moved parameter when it changes at an edge, else none. */
  readonly dependsOn: readonly string[];
}

/** How the run's per-cell conclusions hold with the prior-only parameters at their edges. */
export interface PriorSensitivity {
  /** The parameters moved, all together, with their values at each edge. */
  readonly parameters: ReadonlyArray<{ readonly parameter: string; readonly low: number; readonly high: number }>;
  /** Every arm-vs-baseline cell of the main sweep, in its order. */
  readonly cells: readonly CellSensitivity[];
}

/** The sign a conclusion states: only a significant pooled effect has one. */
export function conclusionOf(success: Robustness): CellConclusion {
  const sign: ConclusionSign = !success.significant ? '0' : success.pooled > 0 ? '+' : '-';
  return { label: success.label, sign, pooled: success.pooled };
}

const key = (effect: Pick<ScenarioEffect, 'scenario' | 'arm'>) => `${effect.scenario}\u0000${effect.arm}`;

/**
 * Compares each cell's success conclusion (label and sign) in the main sweep with the same
 * cell re-run with the prior-only parameters at the low and at the high edge. A cell whose
 * label or sign changes at either edge depends on assumptions no baseline tested: it names
 * every moved parameter, since they were moved together and one edge run cannot tell which
 * of them did it.
 *
 * @example
 * priorSensitivity(main.effects, { low: low.effects, high: high.effects }, parameters).cells
 *   .filter((cell) => cell.changesAt.length > 0);
 */
export function priorSensitivity(
  main: ReadonlyMap<string, ScenarioEffect>,
  edges: Readonly<Record<PriorEdge, ReadonlyMap<string, ScenarioEffect>>>,
  parameters: PriorSensitivity['parameters'],
): PriorSensitivity {
  const byKey = (effects: ReadonlyMap<string, ScenarioEffect>) =>
    new Map([...effects.values()].map((effect) => [key(effect), effect]));
  const low = byKey(edges.low);
  const high = byKey(edges.high);
  const names = parameters.map((entry) => entry.parameter);
  const cells = [...main.values()].map((effect): CellSensitivity => {
    const at = {
      low: optionalConclusion(low.get(key(effect))),
      high: optionalConclusion(high.get(key(effect))),
    };
    const conclusion = conclusionOf(effect.success);
    // A cell missing at an edge (no runs paired there) is a change too: its conclusion is gone.
    const changesAt = (['low', 'high'] as const).filter(
      (edge) => at[edge] === null || at[edge].label !== conclusion.label || at[edge].sign !== conclusion.sign,
    );
    return {
      scenario: effect.scenario,
      arm: effect.arm,
      main: conclusion,
      ...at,
      changesAt,
      dependsOn: changesAt.length > 0 ? names : [],
    };
  });
  return { parameters, cells };
}

function optionalConclusion(effect: ScenarioEffect | undefined): CellConclusion | null {
  return effect === undefined ? null : conclusionOf(effect.success);
}

/** The findings as summary.json holds them (results/summary-schema.ts owns the shape). */
export function storedSensitivity(sensitivity: PriorSensitivity): StoredSensitivity {
  return {
    parameters: sensitivity.parameters.map((entry) => ({ ...entry })),
    cells: sensitivity.cells.map((cell) => ({
      scenario: cell.scenario,
      arm: cell.arm,
      main: { ...cell.main },
      low: cell.low === null ? null : { ...cell.low },
      high: cell.high === null ? null : { ...cell.high },
      changes_at: [...cell.changesAt],
      depends_on: [...cell.dependsOn],
    })),
  };
}
