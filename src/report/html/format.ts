import type { DifferenceInterval } from '../../stats/newcombe.js';
import type { Proportion } from '../../stats/wilson.js';
import { num, pct } from '../compare-format.js';

// Numbers in words, shared by the HTML report, the Markdown summary and the CSV labels.

export { num, pct };

/** "67.0% [61.5, 72.1]". */
export function rateWithInterval(rate: Proportion): string {
  return `${pct(rate.rate)} [${(rate.low * 100).toFixed(1)}, ${(rate.high * 100).toFixed(1)}]`;
}

/** A difference of rates in percentage points with its sign: +24.3, −4.0, ±0.0. */
export const signedPoints = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x * 100).toFixed(1)}`;

/** "+24.3 pts [+18.6, +29.7]". */
export function pointsWithInterval(difference: DifferenceInterval): string {
  return `${signedPoints(difference.estimate)} pts [${signedPoints(difference.low)}, ${signedPoints(difference.high)}]`;
}

/** Whether a difference's 95% interval leaves out 0. */
export function isSignificant(difference: DifferenceInterval): boolean {
  return difference.low > 0 || difference.high < 0;
}

/** A whole count with separators: 1,234. */
export function whole(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** "12 / 71.3 / 210". */
export function medP95Max(d: { readonly median: number; readonly p95: number; readonly max: number }): string {
  return `${num(d.median)} / ${num(d.p95)} / ${num(d.max)}`;
}

/** Virtual milliseconds as seconds: "52.4 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Underscores to spaces, for outcome and verdict kinds in prose: budget_exhausted → budget exhausted. */
export function words(kind: string): string {
  return kind.replaceAll('_', ' ');
}
