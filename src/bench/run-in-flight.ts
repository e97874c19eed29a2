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
