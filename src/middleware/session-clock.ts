import { VirtualClock } from '../clock/virtual-clock.js';
import type { StreamKey } from '../random/streams.js';

/**
 * The time a guard session runs on. Guards sleep synchronously (`ctx.clock.sleep`); a
 * clock that must really wait records the wait as owed and pays it in `settle`, which the
 * session awaits before the next tool execution or model call, so no wait blocks the
 * event loop.
 *
 * @example
 * // A sweep's run: waits are charged to the run's virtual clock and cost nothing.
 * const clock: SessionClock = { now: () => run.now(), sleep: (ms) => run.sleep(ms) };
 */
export interface SessionClock {
  /** Milliseconds since the run started, waits owed included. */
  now(): number;
  /** Charge a wait (a backoff, a retry-after) before the next execution or model call. */
  sleep(ms: number): void;
  /**
   * Pays the waits owed so far; undefined when nothing is owed (a virtual clock never owes).
   * A wait ends at once (resolves) when `signal` is aborted.
   */
  settle?(signal?: AbortSignal): Promise<void> | undefined;
  /**
   * The key of the session's seeded streams (recovery's jitter) when it is given none: a
   * real-time clock gives each session its own, so processes that fail together do not
   * retry in step. A run's clock gives none: the run's own key (or a fixed one) is used.
   */
  readonly streamKey?: StreamKey;
}

/** A session clock as the `VirtualClock` guards read from their context. */
export class HostedClock extends VirtualClock {
  readonly #time: SessionClock;

  constructor(time: SessionClock) {
    super(0);
    this.#time = time;
  }

  override now(): number {
    return this.#time.now();
  }

  override sleep(ms: number): void {
    if (ms > 0 && Number.isFinite(ms)) this.#time.sleep(ms);
  }

  /** A framework runs its own tool calls: a session has no lanes of its own. */
  override fork(): VirtualClock {
    return this;
  }

  override advanceTo(ms: number): void {
    this.sleep(ms - this.now());
  }

  settle(signal?: AbortSignal): Promise<void> | undefined {
    return this.#time.settle?.(signal);
  }
}
