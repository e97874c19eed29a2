import { MIN_MEMBERS, ROBUST_MIN_MEMBERS, type Robustness } from '../stats/robustness.js';
import { num, pct } from './compare-format.js';
import { formatDollars } from './prices.js';
import type { Answer, ArmAnswer, ScenarioEffect } from './recommendation.js';
import { howSure, interval, labelText, signedEffect } from './robustness-format.js';

// The answer in words, generated from the numbers: every claim below is a figure of the
// sweep and the test that backs it, never a sentence written by hand.

/** The difference is significant and points this way (for one model: on its seeds). */
const up = (r: Robustness) => r.significant && r.pooled > 0;
const down = (r: Robustness) => r.significant && r.pooled < 0;

const percentChange = (from: number, to: number) =>
  from === 0
    ? to === 0
      ? '±0%'
      : 'from 0'
    : `${to >= from ? '+' : '-'}${Math.abs(((to - from) / from) * 100).toFixed(0)}%`;

/** Scenarios where the arm's right outcome moved significantly one way, largest first, at most two named. */
function where(effects: readonly ScenarioEffect[], keep: (r: Robustness) => boolean): string {
  const chosen = effects
    .filter((effect) => keep(effect.success))
    .sort((x, y) => Math.abs(y.success.pooled) - Math.abs(x.success.pooled));
  if (chosen.length === 0) return '';
  const named = chosen
    .slice(0, 2)
    .map((effect) => `${effect.scenario} ${signedEffect(effect.success.pooled, 'points')}`);
  const more = chosen.length > 2 ? ` and ${chosen.length - 2} more` : '';
  return `${named.join(', ')}${more}`;
}

/** What the arm buys over the baseline: right outcomes, a shorter tail, fewer harmful runs. */
function buys(answer: Answer, arm: ArmAnswer, base: ArmAnswer): string[] {
  const vs = arm.vsBaseline;
  if (vs === null) return [];
  const parts: string[] = [];
  const gains = where(arm.scenarios, up);
  if (up(vs.success)) {
    parts.push(
      `${signedEffect(vs.success.pooled, 'points')} success over ${answer.baseline} ${interval(vs.success.low, vs.success.high, 'points')}${answer.scenarios.length > 1 ? `, averaged over ${answer.scenarios.length} scenarios${gains === '' ? '' : ` (most on ${gains})`}` : ''}`,
    );
  } else if (vs.success.label === 'depends-on-model' && vs.success.shrunkenMax > 0) {
    parts.push(`up to ${signedEffect(vs.success.shrunkenMax, 'points')} success on some models`);
  } else if (gains !== '') {
    parts.push(`success on ${gains}`);
  }
  if (down(vs.toolCalls))
    parts.push(
      `fewer tool calls: ${signedEffect(vs.toolCalls.pooled, 'calls')} per run (p95 ${num(base.p95ToolCalls)} → ${num(arm.p95ToolCalls)})`,
    );
  if (down(vs.inputTokens))
    parts.push(
      `fewer input tokens: ${signedEffect(vs.inputTokens.pooled, 'tokens')} per run (p95 ${percentChange(base.p95InputTokens, arm.p95InputTokens)})`,
    );
  if (down(vs.harmful)) parts.push(`fewer harmful runs: ${base.harmful} → ${arm.harmful}`);
  return parts;
}

/** Where the arm costs: right outcomes lost somewhere, more calls or tokens, more harm, a dearer success. */
function costs(arm: ArmAnswer, base: ArmAnswer): string[] {
  const vs = arm.vsBaseline;
  if (vs === null) return [];
  const parts: string[] = [];
  const losses = where(arm.scenarios, down);
  if (down(vs.success))
    parts.push(
      `${(Math.abs(vs.success.pooled) * 100).toFixed(1)} pts less success ${interval(vs.success.low, vs.success.high, 'points')}${losses === '' ? '' : ` (most on ${losses})`}`,
    );
  else if (vs.success.label === 'depends-on-model' && vs.success.shrunkenMin < 0)
    parts.push(`down to ${signedEffect(vs.success.shrunkenMin, 'points')} success on other models`);
  else if (losses !== '') parts.push(`success on ${losses}`);
  if (up(vs.toolCalls))
    parts.push(
      `more tool calls: ${signedEffect(vs.toolCalls.pooled, 'calls')} per run (p95 ${num(base.p95ToolCalls)} → ${num(arm.p95ToolCalls)})`,
    );
  if (up(vs.inputTokens))
    parts.push(
      `more input tokens: ${signedEffect(vs.inputTokens.pooled, 'tokens')} per run (p95 ${percentChange(base.p95InputTokens, arm.p95InputTokens)})`,
    );
  if (up(vs.harmful)) parts.push(`more harmful runs: ${base.harmful} → ${arm.harmful}`);
  if (arm.costPerSuccess !== undefined && base.costPerSuccess !== undefined && arm.costPerSuccess > base.costPerSuccess)
    parts.push(`est. cost per success ${formatDollars(base.costPerSuccess)} → ${formatDollars(arm.costPerSuccess)}`);
  return parts;
}

/** The arm and what it is made of: "article (budget, repeat, classify, stuck)". */
export function armWithGuards(arm: ArmAnswer): string {
  // One guard named like its arm says nothing more; a long list (all, all-no-x) is in the provenance.
  const plain =
    arm.guards.length === 0 || arm.guards.length > 4 || (arm.guards.length === 1 && arm.guards[0] === arm.arm);
  return plain ? arm.arm : `${arm.arm} (${arm.guards.join(', ')})`;
}

/**
 * One sentence per arm against the baseline: what it buys, where it costs, and how sure
 * the sweep is about its effect on right outcomes (robust across the ensemble, depends on
 * the model, no clear difference, or one model only).
 */
export function armSentences(answer: Answer): Array<{ readonly arm: string; readonly text: string }> {
  const base = answer.arms.find((arm) => arm.arm === answer.baseline);
  if (base === undefined) return [];
  return answer.arms.flatMap((arm) => {
    if (arm.vsBaseline === null) return [];
    const bought = buys(answer, arm, base);
    const cost = costs(arm, base);
    const text = [
      `Buys ${bought.length === 0 ? `no clear gain over ${answer.baseline}` : bought.join('; ')}`,
      `Costs ${cost.length === 0 ? 'nothing measurable in success, tool calls, tokens or harm' : cost.join('; ')}`,
      `How sure: ${howSure(arm.vsBaseline.success, 'points')}`,
    ].join('. ');
    return [{ arm: armWithGuards(arm), text: `${text}.` }];
  });
}

/**
 * The recommendation in one or two sentences: the arm with the most right outcomes and
 * whether its gain holds, the tightest tail, the cheapest right outcome.
 */
export function pickSentence(answer: Answer): string {
  const [top] = answer.arms;
  if (top === undefined) return 'No arm to recommend: the sweep has no runs.';
  // A sweep without an ensemble says so before it recommends anything: the answer is about one model.
  const scope = answer.members < MIN_MEMBERS ? `${oneModelLead(answer)}, ` : '';
  const first = (sentence: string) =>
    scope === '' ? sentence : `${scope}${sentence[0]?.toLowerCase()}${sentence.slice(1)}`;
  const parts: string[] = [];
  const word = 'success';
  if (top.vsBaseline === null) {
    parts.push(first(`No arm beats ${answer.baseline}: it has the most ${word} (${pct(top.rightOutcome.rate)}).`));
  } else {
    const gain = top.vsBaseline.success;
    const shaky = gain.borderline ? ' (borderline: leaving out one model changes the label)' : '';
    const verdict =
      gain.label === 'robust'
        ? `a robust gain of ${signedEffect(gain.pooled, 'points')} over ${answer.baseline} across ${gain.members} models${shaky}`
        : gain.label === 'depends-on-model'
          ? `but its gain over ${answer.baseline} depends on the model (${signedEffect(gain.shrunkenMin, 'points')} to ${signedEffect(gain.shrunkenMax, 'points')} across ${gain.members} models)${shaky}`
          : gain.label === 'sign-not-established'
            ? `${signedEffect(gain.pooled, 'points')} over ${answer.baseline} on average across ${gain.members} models ${interval(gain.low, gain.high, 'points')}, but for a new model the sign is not established (${interval(gain.predictionLow ?? gain.low, gain.predictionHigh ?? gain.high, 'points')})${shaky}`
            : gain.label === 'no-clear-difference' || !gain.significant
              ? `but no clear difference from ${answer.baseline} (${signedEffect(gain.pooled, 'points')} ${interval(gain.low, gain.high, 'points')})`
              : gain.label === 'too-few-models'
                ? `${signedEffect(gain.pooled, 'points')} over ${answer.baseline} ${interval(gain.low, gain.high, 'points')} across ${gain.members} models, too few to assess a new model`
                : `${signedEffect(gain.pooled, 'points')} over ${answer.baseline} ${interval(gain.low, gain.high, 'points')} on its seeds`;
    const lead =
      top.errored === 0 && (gain.label === 'robust' || (gain.label === 'one-model' && gain.significant))
        ? 'Recommended'
        : 'Highest';
    parts.push(
      first(
        `${lead}: ${top.arm}, with the most ${word} (${pct(top.rightOutcome.rate)})${erroredClause(top)}, ${verdict}.`,
      ),
    );
  }
  // An arm whose runs crashed has a short tail and a low bill for that reason alone: never picked.
  const clean = answer.arms.filter((arm) => arm.errored === 0);
  const tightest = [...clean].sort((x, y) => x.p95ToolCalls - y.p95ToolCalls || x.rank - y.rank)[0];
  if (tightest !== undefined && tightest !== top)
    parts.push(`Tightest tail: ${tightest.arm} (p95 ${num(tightest.p95ToolCalls)} tool calls).`);
  const priced = clean.filter((arm) => arm.costPerSuccess !== undefined);
  const cheapest = [...priced].sort((x, y) => (x.costPerSuccess ?? 0) - (y.costPerSuccess ?? 0))[0];
  if (cheapest !== undefined && cheapest.costPerSuccess !== undefined)
    parts.push(`Cheapest per success: ${cheapest.arm} (${formatDollars(cheapest.costPerSuccess)}, estimate).`);
  return parts.join(' ');
}

/** " though 3 of its 600 runs ended in an error" for an arm with errored runs, else nothing. */
function erroredClause(arm: ArmAnswer): string {
  return arm.errored === 0 ? '' : ` though ${arm.errored} of its ${arm.runs} runs ended in an error`;
}

/** The statement that leads the recommendation of a sweep that cannot speak for other models. */
function oneModelLead(answer: Answer): string {
  return answer.ensemble === undefined
    ? 'On one model only (how it holds across models is not assessed)'
    : `On too few models to assess (ensemble ${answer.ensemble.name} played fewer than ${MIN_MEMBERS} members under every arm)`;
}

/** How robustness was judged, in one line: across the ensemble, or why it was not. */
export function robustnessNote(answer: Answer): string {
  if (answer.members >= 3) {
    const own = answer.ownPersonaScenarios;
    const leftOut =
      own.length === 0
        ? ''
        : ` Pooled over the ${answer.scenarios.length - own.length} scenarios that ran the ensemble; ${own.length} ran a persona of their own (${own.join(', ')}) and count in every other figure.`;
    return `Robustness: ${answer.members} models of ensemble ${answer.ensemble?.name ?? '(unnamed)'}, paired by seed; robust = significant, and the sign holds for a new model (its 95% prediction interval excludes 0), with at least ${ROBUST_MIN_MEMBERS} models; borderline = leaving out one model changes the label (random effects, docs/statistics.md).${leftOut}`;
  }
  if (answer.ensemble !== undefined)
    return `Robustness across models: not assessed: ensemble ${answer.ensemble.name} played fewer than 3 members with runs under every arm (a scenario naming its own persona keeps it; docs/statistics.md).`;
  return 'Robustness across models: not assessed, the sweep ran one model (run it with --ensemble to assess it; docs/statistics.md).';
}

/** The label of an arm's pooled gain, for a table cell. */
export function armLabel(arm: ArmAnswer): string {
  return arm.vsBaseline === null ? 'baseline' : labelText(arm.vsBaseline.success);
}
