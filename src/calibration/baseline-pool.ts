import { Piscina } from 'piscina';
import type { ScenarioSource } from '../sweep/scenario-source.js';
import { type BaselineRuns, type BaselineTask, runBaseline } from './baseline-runs.js';
import type { CalibrationPoolData } from './calibration-worker.js';

/** Runs candidates' baseline tasks, inline or on a worker pool; results in the order of the tasks. */
export interface BaselineRunner {
  run(tasks: readonly BaselineTask[]): Promise<BaselineRuns[]>;
  close(): Promise<void>;
}

/**
 * One worker thread runs one candidate's seeds at a time; the runs of a task do not
 * depend on where it ran, so neither does anything computed from them.
 */
export function baselineRunner(source: ScenarioSource, workers: number): BaselineRunner {
  if (workers <= 1) {
    return {
      async run(tasks) {
        const results: BaselineRuns[] = [];
        for (const task of tasks) results.push(await runBaseline(source.scenario, task));
        return results;
      },
      async close() {},
    };
  }
  const data: CalibrationPoolData = { scenario: source.texts };
  const pool = new Piscina<BaselineTask, BaselineRuns>({
    filename: new URL('./calibration-worker.js', import.meta.url).href,
    workerData: data,
    minThreads: workers,
    maxThreads: workers,
  });
  return {
    run: (tasks) => Promise.all(tasks.map((task) => pool.run(task))),
    close: () => pool.destroy(),
  };
}
