import type { CellSummary, TaskTally } from '../stats/cell-summary.js';

/** One arm's runs of each task of a dataset scenario. */
export interface ArmTasks {
  readonly arm: string;
  readonly tasks: readonly TaskTally[];
}

/** A dataset scenario's tasks across the sweep's arms, as the reports show them. */
export interface DatasetTasks {
  readonly scenario: string;
  readonly arms: readonly ArmTasks[];
  /** Task ids, hardest first: fewest right outcomes over every arm's runs, then row order. */
  readonly hardest: readonly string[];
}

/** The dataset scenarios of a sweep's cells, each with its arms' task tallies; none when no scenario has a dataset. */
export function datasetTasksOf(cells: readonly CellSummary[]): DatasetTasks[] {
  const byScenario = new Map<string, ArmTasks[]>();
  for (const cell of cells) {
    if (cell.tasks === undefined) continue;
    const arms = byScenario.get(cell.scenario) ?? [];
    arms.push({ arm: cell.arm, tasks: cell.tasks });
    byScenario.set(cell.scenario, arms);
  }
  return [...byScenario].map(([scenario, arms]) => {
    const share = new Map<string, { right: number; runs: number; order: number }>();
    for (const { tasks } of arms)
      tasks.forEach((task, order) => {
        const seen = share.get(task.task) ?? { right: 0, runs: 0, order };
        share.set(task.task, { right: seen.right + task.right, runs: seen.runs + task.runs, order: seen.order });
      });
    const hardest = [...share]
      .sort(([, a], [, b]) => a.right / a.runs - b.right / b.runs || a.order - b.order)
      .map(([task]) => task);
    return { scenario, arms, hardest };
  });
}
