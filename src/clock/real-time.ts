/**
 * Real time, for the one place a run may meet it: a real model's rate limits. A real
 * API answers "try again at 12:00:03" or "in 2 s", and only real waiting honours that.
 * Simulated runs never read this module (they use the VirtualClock); the rate limiter
 * takes both functions as options, so its tests inject a fake clock and never sleep.
 */
export const realTime = {
  /** Milliseconds since the Unix epoch, the scale of reset timestamps in headers. */
  nowMs(): number {
    return Date.now();
  },
  /** Resolves after `ms` milliseconds of real time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  },
};
