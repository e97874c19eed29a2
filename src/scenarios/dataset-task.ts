import { rowIndexOfSeed } from './dataset.js';
import type { Scenario } from './loader.js';

/** Each dataset scenario's tasks as scenarios, made once a row. */
const made = new WeakMap<Scenario, Scenario[]>();

/**
 * The scenario a run of `seed` plays: for a dataset scenario, the task of its row (seeds
 * cycle through the rows, seed 1 the first), with the row's prompt, world, plan and check;
 * any other scenario as it is. A task is made once per scenario object, so an ensemble
 * member's or a moved prior's scenario gets its own tasks.
 *
 * @example
 * scenarioForSeed(lookups, 3).task; // the third row's task id (of a dataset of three or more)
 */
export function scenarioForSeed(scenario: Scenario, seed: number): Scenario {
  const { dataset } = scenario;
  if (dataset === null) return scenario;
  const index = rowIndexOfSeed(seed, dataset.tasks.length);
  let tasks = made.get(scenario);
  if (tasks === undefined) {
    tasks = [];
    made.set(scenario, tasks);
  }
  const task = dataset.tasks[index]!;
  tasks[index] ??= { ...scenario, ...task.fields, dataset: null, task: task.id };
  return tasks[index];
}
