import type { StoredEnsemble, StoredSummary } from '../results/summary-schema.js';
import type { LiveLabel } from '../run/live-session.js';
import type { PersonaEnsemble } from '../scenarios/persona-ensemble.js';
import type { Scenario } from '../scenarios/loader.js';
import type { CellSummary } from '../stats/cell-summary.js';
import { passHatK } from '../stats/pass-hat-k.js';
import { VERSION } from '../version.js';

/** summary.json, as the results module defines it. */
export type SweepSummary = StoredSummary;

const PASS_HAT_KS = [1, 2, 4, 8];

function passHatKByArm(cells: readonly CellSummary[]): SweepSummary['pass_hat_k'] {
  const arms = [...new Set(cells.map((cell) => cell.arm))];
  return arms.map((arm) => {
    // Each scenario is a task; a dataset scenario's rows are a task each.
    const tasks = cells
      .filter((cell) => cell.arm === arm)
      .flatMap((cell) =>
        cell.tasks === undefined
          ? [{ trials: cell.runs, successes: cell.right_outcome.successes }]
          : cell.tasks.map((task) => ({ trials: task.runs, successes: task.right })),
      );
    const fewest = Math.min(...tasks.map((task) => task.trials));
    const k = Object.fromEntries(
      PASS_HAT_KS.filter((k) => k <= fewest).map((k) => [String(k), Math.round(passHatK(tasks, k) * 10_000) / 10_000]),
    );
    return { arm, k };
  });
}

/** A dataset scenario's task ids, as summary.json lists them beside it; nothing for another scenario. */
export function datasetTasks(scenario: Scenario): { tasks?: readonly string[] } {
  return scenario.dataset === null ? {} : { tasks: scenario.dataset.tasks.map((task) => task.id) };
}

/** The summary of a sweep's definition and cells, shared by runs and merges. */
export function sweepSummary(
  definition: Omit<SweepSummary, 'cells' | 'spiralbench' | 'pass_hat_k' | 'live' | 'ensemble'>,
  cells: readonly CellSummary[],
  live?: LiveLabel,
  ensemble?: StoredEnsemble,
): SweepSummary {
  // `live` and `ensemble` are appended, and only for sweeps that have them: others keep their bytes.
  return {
    spiralbench: VERSION,
    ...definition,
    cells,
    pass_hat_k: passHatKByArm(cells),
    ...(live === undefined ? {} : { live }),
    ...(ensemble === undefined ? {} : { ensemble }),
  };
}

/** An ensemble as summary.json names it. */
export function storedEnsemble(ensemble: PersonaEnsemble): StoredEnsemble {
  return { name: ensemble.name, members: ensemble.members.length, hash: ensemble.hash };
}

/** A scenario that declares its task impossible: escalating is its right outcome. */
export function isImpossible(scenario: Scenario): boolean {
  return (scenario as { readonly impossible?: boolean }).impossible === true;
}
