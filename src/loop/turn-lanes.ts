import type { VirtualClock } from '../clock/virtual-clock.js';

/** A turn without early starts (every turn of a reply that was not streamed); never written to. */
const NO_EARLY_STARTS: readonly number[] = [];

/**
 * Where each tool call of one turn runs on the virtual clock, in request order:
 *
 * - a call that started early (a streamed reply's leading read, at `early[i]`, see
 *   early-tool-start.ts) runs on its own lane from then: one after the other, or each from
 *   its own start with concurrency; the turn goes on once the reply and they are done;
 * - with concurrency, a run of concurrency-safe calls shares one start time and the turn
 *   waits for the slowest of them;
 * - every other call runs alone on the turn's clock.
 *
 * `open` gives the clock a call runs on, `close` takes it back, `settle` moves the turn's
 * clock past every lane once the calls are done.
 */
export class TurnLanes {
  readonly #clock: VirtualClock;
  readonly #concurrent: boolean;
  readonly #early: readonly number[];
  #earlyEnd: number;
  #earlySettled: boolean;
  #laneStart: number | null = null;
  #laneEnd = 0;

  constructor(clock: VirtualClock, concurrent: boolean, early: readonly number[] = NO_EARLY_STARTS) {
    this.#clock = clock;
    this.#concurrent = concurrent;
    this.#early = early;
    this.#earlyEnd = clock.now();
    this.#earlySettled = early.length === 0;
  }

  /** The clock call `index` (concurrency-safe or not) runs on. */
  open(index: number, concurrencySafe: boolean): VirtualClock {
    const startsAt = this.#early[index];
    if (startsAt !== undefined)
      return this.#clock.fork(this.#concurrent || index === 0 ? startsAt : Math.max(startsAt, this.#earlyEnd));
    this.#settleEarly();
    const together = this.#concurrent && concurrencySafe;
    if (!together && this.#laneStart !== null) {
      this.#clock.advanceTo(this.#laneEnd);
      this.#laneStart = null;
    }
    if (together && this.#laneStart === null) this.#laneStart = this.#laneEnd = this.#clock.now();
    return this.#laneStart === null ? this.#clock : this.#clock.fork(this.#laneStart);
  }

  /** Call `index` has finished on `lane`. */
  close(index: number, lane: VirtualClock): void {
    if (index < this.#early.length)
      this.#earlyEnd = this.#concurrent ? Math.max(this.#earlyEnd, lane.now()) : lane.now();
    else if (this.#laneStart !== null) this.#laneEnd = Math.max(this.#laneEnd, lane.now());
  }

  /** Every call of the turn is done: the turn's clock moves past the last lane. */
  settle(): void {
    this.#settleEarly();
    if (this.#laneStart !== null) this.#clock.advanceTo(this.#laneEnd);
  }

  #settleEarly(): void {
    if (this.#earlySettled) return;
    this.#earlySettled = true;
    this.#clock.advanceTo(Math.max(this.#clock.now(), this.#earlyEnd));
  }
}
