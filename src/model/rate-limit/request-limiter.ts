import { realTime } from '../../clock/real-time.js';
import { type RateLimitBudget, rateLimitBudgets, rateLimitHold, type RateLimitHold } from './rate-limit-headers.js';

export interface RequestLimiterOptions {
  /** Requests in flight at once, across every run of the sweep. @default 4 */
  readonly concurrency?: number;
  /**
   * The longest one hold may last. A reset hours away (a daily quota) would otherwise
   * stall a sweep silently; past the cap the request goes and the provider's 429, read by
   * the recovery guard, says what happened. @default 120000
   */
  readonly maxHoldMs?: number;
  /** Epoch milliseconds now. @default real time (the only real-time path of a run) */
  readonly nowMs?: () => number;
  /** Waits that long. @default real time */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told once per new hold, so the user sees why the sweep paused. @default nothing */
  readonly onHold?: (hold: RateLimitHold & { readonly waitMs: number }) => void;
}

/**
 * Shared by every run of a real-model sweep: at most `concurrency` requests in flight,
 * and when a response says a limit is spent (remaining 0 until a reset, or retry-after)
 * no new request starts before that time. Between responses the limits are counted down
 * as requests start (a token bucket, refilled at its reset): one from a request budget,
 * the request's tokens from a token budget, and a request the budget cannot cover waits
 * for the reset. So `--concurrency` is a ceiling, and the provider's headers set the pace.
 * Requests already sent are not recalled.
 *
 * @example
 * const limiter = new RequestLimiter({ concurrency: 4 });
 * const release = await limiter.acquire();
 * try { const response = await fetch(url); limiter.observe(response.headers); } finally { release(); }
 */
export class RequestLimiter {
  readonly concurrency: number;
  readonly #maxHoldMs: number;
  readonly #nowMs: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onHold: RequestLimiterOptions['onHold'];
  #inFlight = 0;
  readonly #waiting: Array<() => void> = [];
  #holdUntilMs = 0;
  #announcedUntilMs = 0;
  /** What each limit has left until its reset, by header: the last response's figure, less what started since. */
  readonly #budgets = new Map<string, RateLimitBudget>();

  constructor(options: RequestLimiterOptions = {}) {
    this.concurrency = options.concurrency ?? 4;
    if (!Number.isSafeInteger(this.concurrency) || this.concurrency < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${this.concurrency}`);
    this.#maxHoldMs = options.maxHoldMs ?? 120_000;
    this.#nowMs = options.nowMs ?? realTime.nowMs;
    this.#sleep = options.sleep ?? realTime.sleep;
    this.#onHold = options.onHold;
  }

  /** Requests started and not yet released. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Epoch ms before which new requests wait; 0 when none is asked for. */
  get holdUntilMs(): number {
    return this.#holdUntilMs;
  }

  /**
   * Waits for a free slot, then for any hold to pass and for the limits to cover the
   * request (`tokens`: what it sends, estimated); returns the slot's release.
   */
  async acquire(tokens = 0): Promise<() => void> {
    if (this.#inFlight < this.concurrency) this.#inFlight += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve)); // the slot is handed over, the count unchanged
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#inFlight -= 1;
      else next();
    };
    try {
      // One cap for the whole wait, a hold and a short budget together.
      const started = this.#nowMs();
      await this.#waitOutHold(started);
      await this.#draw(tokens, started);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Reads a response's headers; a spent limit holds every request not yet started. */
  observe(headers: Headers): void {
    for (const budget of rateLimitBudgets(headers, this.#nowMs())) this.#budgets.set(budget.header, budget);
    const hold = rateLimitHold(headers, this.#nowMs());
    if (hold === undefined || hold.untilMs <= this.#holdUntilMs) return;
    this.#holdUntilMs = hold.untilMs;
    if (hold.untilMs > this.#announcedUntilMs) {
      this.#announcedUntilMs = hold.untilMs;
      this.#onHold?.({ ...hold, waitMs: Math.min(hold.untilMs - this.#nowMs(), this.#maxHoldMs) });
    }
  }

  /** Counts the request against every limit not yet reset, first waiting for the reset of any it would overdraw. */
  async #draw(tokens: number, started: number): Promise<void> {
    for (;;) {
      const now = this.#nowMs();
      let waitUntil = 0;
      let short: RateLimitBudget | undefined;
      for (const budget of this.#budgets.values()) {
        if (budget.untilMs <= now) continue;
        const need = budget.unit === 'requests' ? 1 : tokens;
        if (need > 0 && budget.remaining < need && budget.untilMs > waitUntil) {
          waitUntil = budget.untilMs;
          short = budget;
        }
      }
      const waitMs = Math.min(waitUntil, started + this.#maxHoldMs) - now;
      if (short === undefined || waitMs <= 0) break;
      if (waitUntil > this.#announcedUntilMs) {
        this.#announcedUntilMs = waitUntil;
        this.#onHold?.({
          untilMs: waitUntil,
          header: `${short.header}: ${short.remaining} left`,
          waitMs,
        });
      }
      await this.#sleep(waitMs);
    }
    const now = this.#nowMs();
    for (const [header, budget] of this.#budgets) {
      if (budget.untilMs <= now) {
        this.#budgets.delete(header); // reset: full again, until a response says otherwise
        continue;
      }
      const need = budget.unit === 'requests' ? 1 : tokens;
      this.#budgets.set(header, { ...budget, remaining: budget.remaining - need });
    }
  }

  async #waitOutHold(started: number): Promise<void> {
    // Loop: a response seen while sleeping may push the hold further.
    for (;;) {
      const now = this.#nowMs();
      const waitMs = Math.min(this.#holdUntilMs, started + this.#maxHoldMs) - now;
      if (waitMs <= 0) return;
      await this.#sleep(waitMs);
    }
  }
}
