import { randomInt } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { SessionClock } from './session-clock.js';

/**
 * Real time for a guard session in a user's production agent: the one place in the
 * middleware that reads the wall clock and sets a timer. A guard's wait is owed, not
 * slept (guards sleep synchronously, and blocking would stall every other request the
 * process serves); the session pays it with an awaited timer before the next tool
 * execution or model call, cut short when the run's signal is aborted. A sweep never uses this clock: it passes the run's own.
 *
 * @example
 * const session = createGuardSession({ guards: 'article', clock: wallClock() });
 */
export function wallClock(
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) =>
    delay(ms, undefined, signal === undefined ? {} : { signal }),
): SessionClock {
  const startedAt = performance.now();
  let owed = 0;
  return {
    // Production only (a sweep passes the run's clock): each session jitters its own way.
    streamKey: Object.freeze({ sweepSeed: 0, scenario: 'middleware', runSeed: randomInt(2 ** 31) }),
    now: () => Math.round(performance.now() - startedAt) + owed,
    sleep(ms) {
      if (ms > 0 && Number.isFinite(ms)) owed += ms;
    },
    settle(signal) {
      if (owed === 0) return undefined;
      const ms = owed;
      owed = 0;
      // An abort ends the wait: the session then neither retries nor calls again.
      return signal?.aborted
        ? Promise.resolve()
        : wait(ms, signal).catch((error: unknown) => {
            if (signal?.aborted !== true) throw error;
          });
    },
  };
}
