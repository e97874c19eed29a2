import { ROBUST_MIN_MEMBERS, type Robustness } from '../stats/robustness.js';

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

/** The label in plain words, without its stability. */
export function labelWords(r: Robustness): string {
  switch (r.label) {
    case 'robust':
      return 'robust';
    case 'depends-on-model':
      return 'depends on the model';
    case 'sign-not-established':
      return 'sign for a new model not established';
    case 'no-clear-difference':
      return 'no clear difference';
    case 'too-few-models':
      return `${r.members} models: too few to assess`;
    case 'one-model':
      return r.members === 1
        ? 'one model: not assessed'
        : r.members < 3
          ? `${r.members} models: too few to assess`
          : 'one seed per model: not assessed';
  }
}

/** The label in plain words, with "(borderline)" when leaving out one member would change it. */
export function labelText(r: Robustness): string {
  return r.borderline ? `${labelWords(r)} (borderline)` : labelWords(r);
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

/** Why a label is borderline, for sentences: "borderline: leaving out member 7 makes it sign for a new model not established". */
function borderlineClause(r: Robustness): string {
  if (!r.borderline) return '';
  const named = r.flippedBy.slice(0, 3).join(', ');
  const more = r.flippedBy.length > 3 ? ` and ${r.flippedBy.length - 3} more` : '';
  return `; borderline: leaving out one model (member ${named}${more}) changes this label`;
}

/** One sentence on how sure a difference is, for the recommendation. */
export function howSure(r: Robustness, unit: EffectUnit): string {
  const pooled = `${signedEffect(r.pooled, unit)} ${interval(r.low, r.high, unit)}`;
  const newModel = interval(r.predictionLow ?? r.low, r.predictionHigh ?? r.high, unit);
  const shaky = borderlineClause(r);
  switch (r.label) {
    case 'robust':
      return `robust across the ${r.members} models of the ensemble: pooled ${pooled}, a new model ${newModel}${shaky}`;
    case 'depends-on-model':
      return `depends on the model: across ${r.members} models the effect runs from ${signedNumber(r.shrunkenMin, unit)} to ${signedNumber(r.shrunkenMax, unit)} (pooled ${pooled}; a new model ${newModel})${shaky}`;
    case 'sign-not-established':
      return `significant on average across ${r.members} models (pooled ${pooled}), but a new model's effect could have either sign (${newModel})${shaky}`;
    case 'no-clear-difference':
      return `no clear difference across ${r.members} models: pooled ${pooled}${shaky}`;
    case 'too-few-models':
      return `${r.members} models are too few to assess how it holds for a new model (robust needs ${ROBUST_MIN_MEMBERS}): pooled ${pooled}, a new model ${newModel}`;
    case 'one-model':
      return `${r.significant ? 'significant' : 'not significant'} on this model's seeds (${pooled}); ${r.members === 1 ? 'one model, so robustness across models is not assessed' : `${labelText(r)}`}`;
  }
}
