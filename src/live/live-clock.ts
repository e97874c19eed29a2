import { VirtualClock } from '../clock/virtual-clock.js';

/**
 * Real time for a live run, in the scenario's milliseconds. Every wait the harness
 * chooses (backoff, retry-after, a simulated model's latency) is really slept, scaled by
 * `scale`, and `now()` is the real time since the run started divided by the same
 * factor: a 1 s backoff at scale 0.02 sleeps 20 ms and reads back as 1 s. Live mode only:
 * it blocks the thread (Atomics.wait), which nothing else in spiralbench may do. The
 * thread also serves the live tools and model, so a sleep must never fall while one of
 * their requests is out: the loop sleeps only between the requests it awaits.
 */
export class LiveClock extends VirtualClock {
  readonly scale: number;
  readonly #startedAt = performance.now();
  readonly #sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(scale: number) {
    super(0);
    this.scale = scale;
  }

  /** Real milliseconds since the run started. */
  wallMs(): number {
    return performance.now() - this.#startedAt;
  }

  override now(): number {
    return Math.round(this.wallMs() / this.scale);
  }

  override sleep(ms: number): void {
    if (ms > 0 && Number.isFinite(ms)) Atomics.wait(this.#sleeper, 0, 0, ms * this.scale);
  }

  /** Live calls run one after another (the loop awaits each before the next), each on the real clock: a lane is this clock. */
  override fork(): VirtualClock {
    return this;
  }

  override advanceTo(ms: number): void {
    this.sleep(ms - this.now());
  }
}
