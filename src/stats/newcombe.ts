import { wilson } from './wilson.js';

/** Successes out of trials. */
export interface Count {
  readonly successes: number;
  readonly trials: number;
}

/** A difference `b − a` with its 95% interval. */
export interface DifferenceInterval {
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
}

/**
 * 95% interval for the difference of two proportions, `rate(b) − rate(a)`, by Newcombe's
 * hybrid score method (method 10 of Newcombe 1998) from the two Wilson intervals. Unlike
 * the Wald interval it stays inside [−1, 1] and keeps its coverage near rates of 0 or 1.
 * The Wilson bounds come from `wilson()`, which rounds to 4 decimals, so the bounds here
 * are good to about ±1e-4; they are rounded to 4 decimals as well.
 *
 * @example
 * newcombeDifference({ successes: 48, trials: 80 }, { successes: 56, trials: 70 });
 * // { estimate: 0.2, low: 0.0524, high: 0.3339 }
 */
export function newcombeDifference(a: Count, b: Count): DifferenceInterval {
  for (const { successes, trials } of [a, b]) {
    if (
      !Number.isSafeInteger(trials) ||
      trials < 1 ||
      !Number.isSafeInteger(successes) ||
      successes < 0 ||
      successes > trials
    ) {
      throw new RangeError(
        `newcombeDifference needs 0 ≤ successes ≤ trials, trials ≥ 1; got ${successes} of ${trials}`,
      );
    }
  }
  const pa = a.successes / a.trials;
  const pb = b.successes / b.trials;
  const wa = wilson(a.successes, a.trials);
  const wb = wilson(b.successes, b.trials);
  const estimate = pb - pa;
  // The low end combines b's downside with a's upside, and the other way round.
  const low = estimate - Math.hypot(pb - wb.low, wa.high - pa);
  const high = estimate + Math.hypot(wb.high - pb, pa - wa.low);
  const r = (x: number) => Math.round(x * 10_000) / 10_000;
  return { estimate: r(estimate), low: r(Math.max(-1, low)), high: r(Math.min(1, high)) };
}
