/**
 * Virtual time for one run. Sleeping advances the clock instantly, so backoff and
 * retry-after waits cost nothing on the wall clock yet show up, exactly, in results.
 *
 * @example
 * const clock = new VirtualClock();
 * const result = await new BudgetedAgentLoop({ model, tools, clock, guards: [errorClassification()] }).run(task);
 * clock.now() === result.metrics.virtualMs; // backoff waits included, none of them really waited
 */
export class VirtualClock {
  #nowMs: number;

  constructor(startMs = 0) {
    this.#nowMs = startMs;
  }

  /** Milliseconds of virtual time since the run started. */
  now(): number {
    return this.#nowMs;
  }

  /** Advance the clock by `ms` (negative or non-finite values are ignored). */
  sleep(ms: number): void {
    if (ms > 0 && Number.isFinite(ms)) this.#nowMs += ms;
  }

  /**
   * A clock for a concurrent lane of this run, starting at `startMs`; the turn joins the
   * lanes back with `advanceTo`. A clock that really waits (live mode) has no virtual lanes.
   */
  fork(startMs: number): VirtualClock {
    return new VirtualClock(startMs);
  }

  /** Move the clock forward to `ms` if it is later than now (a join of concurrent lanes). */
  advanceTo(ms: number): void {
    if (ms > this.#nowMs && Number.isFinite(ms)) this.#nowMs = ms;
  }
}
