import type { Robustness } from '../stats/robustness.js';

// Words for how a difference holds across an ensemble's members, shared by the terminal
// tables, compare, the Markdown summary and the HTML report.

/** What a difference is measured in: rate points (success), or per-run counts. */
export type EffectUnit = 'points' | 'calls' | 'tokens';

const sign = (x: number) => (x > 0 ? '+' : x < 0 ? '-' : '±');

/** A difference in its unit with its sign: "+12.3 pts", "-1.5 calls", "+1,204 tokens". */
export function signedEffect(x: number, unit: EffectUnit): string {
  const abs = Math.abs(x);
  switch (unit) {
    case 'points':
      return `${sign(x)}${(abs * 100).toFixed(1)} pts`;
    case 'calls':
      return `${sign(x)}${abs.toFixed(1)} calls`;
    case 'tokens':
      return `${sign(x)}${Math.round(abs).toLocaleString('en-US')} tokens`;
  }
}

/** A bare number in the unit, signed, for interval ends: "+12.3", "-1.5", "+1,204". */
function signedNumber(x: number, unit: EffectUnit): string {
  const abs = Math.abs(x);
  const text =
    unit === 'points'
      ? (abs * 100).toFixed(1)
      : unit === 'calls'
        ? abs.toFixed(1)
        : Math.round(abs).toLocaleString('en-US');
  return `${sign(x)}${text}`;
}

/** "[+8.1, +15.9]"; a difference of rates stays within ±100 points, whatever a normal interval says. */
export function interval(low: number, high: number, unit: EffectUnit): string {
  const clamp = (x: number) => (unit === 'points' ? Math.min(1, Math.max(-1, x)) : x);
  return `[${signedNumber(clamp(low), unit)}, ${signedNumber(clamp(high), unit)}]`;
}

/** The label in plain words. */
export function labelText(r: Robustness): string {
  switch (r.label) {
    case 'robust':
      return 'robust';
    case 'depends-on-model':
      return 'depends on the model';
    case 'no-clear-difference':
      return 'no clear difference';
    case 'one-model':
      return r.members === 1
        ? 'one model: not assessed'
        : r.members < 3
          ? `${r.members} models: too few to assess`
          : 'one seed per model: not assessed';
  }
}

/** Whether the label claims anything about models beyond the one or two in the sweep. */
export const assessed = (r: Robustness): boolean => r.label !== 'one-model';

/** The members' effects: raw (each from its own seeds), and shrunk towards the pooled effect (seed noise taken out). */
export function membersLines(r: Robustness, unit: EffectUnit): [string, string] {
  const range = (low: number, high: number) =>
    low === high ? `all ${signedNumber(low, unit)}` : `${signedNumber(low, unit)} to ${signedNumber(high, unit)}`;
  return [
    `members ${range(r.rawMin, r.rawMax)} raw`,
    r.tau === 0 ? 'shrunk: all equal (τ = 0)' : `shrunk ${range(r.shrunkenMin, r.shrunkenMax)}`,
  ];
}

/**
 * How a difference holds across the members, in short lines: the label, the pooled
 * effect with its interval, a new model's prediction interval, and the members' range.
 * A sweep without an ensemble gets the label alone.
 */
export function acrossModelsLines(r: Robustness, unit: EffectUnit): string[] {
  if (!assessed(r)) return [labelText(r)];
  return [
    `${labelText(r)} (${r.members} models)`,
    `pooled ${signedEffect(r.pooled, unit)} ${interval(r.low, r.high, unit)}`,
    `new model ${interval(r.predictionLow ?? r.low, r.predictionHigh ?? r.high, unit)}`,
    ...membersLines(r, unit),
  ];
}

/** One sentence on how sure a difference is, for the recommendation. */
export function howSure(r: Robustness, unit: EffectUnit): string {
  const pooled = `${signedEffect(r.pooled, unit)} ${interval(r.low, r.high, unit)}`;
  switch (r.label) {
    case 'robust':
      return `robust across the ${r.members} models of the ensemble: pooled ${pooled}, a new model ${interval(r.predictionLow ?? r.low, r.predictionHigh ?? r.high, unit)}${r.heterogeneityP >= 0.05 ? ' (the models differ no more than seed noise explains)' : ''}`;
    case 'depends-on-model':
      return `depends on the model: across ${r.members} models the effect runs from ${signedNumber(r.shrunkenMin, unit)} to ${signedNumber(r.shrunkenMax, unit)} (pooled ${pooled}; a new model ${interval(r.predictionLow ?? r.low, r.predictionHigh ?? r.high, unit)})`;
    case 'no-clear-difference':
      return `no clear difference across ${r.members} models: pooled ${pooled}`;
    case 'one-model':
      return `${r.significant ? 'significant' : 'not significant'} on this model's seeds (${pooled}); ${r.members === 1 ? 'one model, so robustness across models is not assessed' : `${labelText(r)}`}`;
  }
}
