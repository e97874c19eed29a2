/** The longest wait setTimeout takes; a longer one fires at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Ends runs whose agent went quiet. An agent that crashes mid-run never ends its run;
 * after `seconds` of wall-clock time without a request for that run, `onIdle` ends it
 * as failed, so the sweep records it instead of leaving a hole. Wall-clock time belongs
 * here, at the live edge where a real process talks over a real socket (as live mode's);
 * the runs themselves keep their virtual clocks. 0 seconds watches nothing.
 *
 * @example
 * const idle = new IdleWatch(120, (id) => sweep.end(id, { returned: { outcome: 'failed', reason: 'idle' } }));
 * idle.touch('run-3');
 */
export class IdleWatch {
  readonly seconds: number;
  readonly #onIdle: (id: string) => void;
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(seconds: number, onIdle: (id: string) => void) {
    this.seconds = seconds;
    this.#onIdle = onIdle;
  }

  /** The run was heard from: its wait starts again. */
  touch(id: string): void {
    if (this.seconds === 0) return;
    this.forget(id);
    this.#wait(id, this.seconds * 1000);
  }

  /** Waits `ms` for run `id`, in steps setTimeout can take: it fires at once on more than 2^31 - 1 ms (about 24.8 days). */
  #wait(id: string, ms: number): void {
    const step = Math.min(ms, MAX_TIMEOUT_MS);
    const timer = setTimeout(() => {
      if (ms > step) return this.#wait(id, ms - step);
      this.#timers.delete(id);
      this.#onIdle(id);
    }, step);
    this.#timers.set(id, timer);
  }

  /** The run has ended: nothing to watch. */
  forget(id: string): void {
    const timer = this.#timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(id);
  }

  stop(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
