import { modulesLoading } from '../user-module/import-user-module.js';

/** The run this thread is in the middle of: where a process that stops mid-run says it stopped. */
export interface RunInFlight {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
}

let current: RunInFlight | undefined;

/** Marks `run` as started in this thread; the returned function marks it ended. */
export function runStarted(run: RunInFlight): () => void {
  current = run;
  return () => {
    if (current === run) current = undefined;
  };
}

/** The run this thread has started and not ended, if any. */
export function runInFlight(): RunInFlight | undefined {
  return current;
}

/**
 * Where user code in this thread is running, for a message about it: the run in flight
 * ("in arm a, scenario s, seed 3"), else a module being imported, else outside both.
 */
export function whereUserCodeRuns(run = runInFlight(), loading = modulesLoading()): string {
  if (run !== undefined) return `in arm ${run.arm}, scenario ${run.scenario}, seed ${run.seed}`;
  const path = loading[0];
  return path === undefined ? 'outside any run' : `while loading '${path}'`;
}
