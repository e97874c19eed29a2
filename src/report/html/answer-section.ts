import type { Robustness } from '../../stats/robustness.js';
import { formatDollars } from '../prices.js';
import type { Answer, ArmAnswer } from '../recommendation.js';
import { armSentences, pickSentence, robustnessNote } from '../recommendation-text.js';
import { mixSentences } from '../scenario-mix-text.js';
import { assessed, interval, labelText, membersLines, signedEffect } from '../robustness-format.js';
import { html, type SafeHtml } from './escape.js';
import { num, pct, whole } from './format.js';

const BADGE: Readonly<Record<Robustness['label'], string>> = {
  robust: 'r-robust',
  'depends-on-model': 'r-depends',
  'sign-not-established': 'r-depends',
  'no-clear-difference': 'r-none',
  'too-few-models': 'r-one',
  'one-model': 'r-one',
};

/** A robustness label as a coloured badge, with the prediction interval and the members' range when an ensemble can say. */
export function robustnessBadge(r: Robustness, options: { readonly paired?: boolean } = {}): SafeHtml {
  const unit = 'points';
  const badge = html`<span class="badge ${BADGE[r.label]}" title="${labelText(r)}">${r.label === 'one-model' ? (r.members === 1 ? 'one model' : labelText(r)) : labelText(r)}</span>`;
  // One model: what its seeds say, paired by seed (tighter than Newcombe's, which takes the arms as independent).
  if (!assessed(r))
    return options.paired === false
      ? badge
      : html`${badge}<br><span class="ci nowrap" title="the same seeds under both arms, paired">paired ${signedEffect(r.pooled, unit)}<br>${interval(r.low, r.high, unit)}</span>`;
  const [raw, shrunk] = membersLines(r, unit);
  return html`${badge}<br><span class="ci nowrap" title="${r.members} models; a new model's effect lies in this interval with 95% probability">new model ${interval(r.predictionLow ?? r.low, r.predictionHigh ?? r.high, unit)}<br>${raw.replace('members ', '')}<br>${shrunk}</span>`;
}

function armRow(arm: ArmAnswer, answer: Answer): SafeHtml {
  const vs = arm.vsBaseline?.success;
  const { rate, low, high } = arm.rightOutcome;
  return html`<tr class="${arm.arm === answer.baseline ? 'baseline' : ''}">
<td class="num">${arm.rank}</td>
<td class="arm">${arm.arm}${arm.guards.length > 0 && !(arm.guards.length === 1 && arm.guards[0] === arm.arm) ? html`<br><span class="ci">${arm.guards.join(', ')}</span>` : ''}</td>
<td class="num">${pct(rate)}<br><span class="ci">[${(low * 100).toFixed(1)}, ${(high * 100).toFixed(1)}]</span></td>
<td class="num">${vs === undefined ? html`<span class="muted">baseline</span>` : html`<span class="${!vs.significant ? '' : vs.pooled > 0 ? 'better' : 'worse'}">${signedEffect(vs.pooled, 'points')}</span><br><span class="ci">${interval(vs.low, vs.high, 'points')}</span>`}</td>
<td>${vs === undefined ? html`<span class="muted">—</span>` : robustnessBadge(vs, { paired: false })}</td>
<td class="num">${num(arm.p95ToolCalls)}</td>
<td class="num">${whole(arm.p95InputTokens)}</td>
<td class="num">${whole(arm.harmful)}<br><span class="ci">${pct(arm.harmful / Math.max(1, arm.runs))}</span></td>
<td class="num">${whole(arm.duplicateSideEffects)}</td>
<td class="num">${arm.costPerSuccess === undefined ? 'n/a' : formatDollars(arm.costPerSuccess)}</td>
</tr>`;
}

/**
 * The report's answer: every arm over all the sweep's scenarios, ranked as the arena
 * leaderboard ranks (success, then fewer p95 tool calls, then fewer p95 input tokens), its
 * gain over the baseline with how it holds across the ensemble's models, the
 * recommendation, and a sentence per arm — all generated from the numbers.
 */
export function answerSection(answer: Answer): SafeHtml {
  const sentences = armSentences(answer);
  const mix = mixSentences(answer);
  return html`<p class="lede">${pickSentence(answer)}</p>
${mix.length === 0 ? '' : html`<ul class="mix">${mix.map((line) => html`<li>${line}</li>`)}</ul>`}
${answer.arena ? html`<h3>Arena leaderboard</h3><p class="muted">Our loop's arms and every peer framework on the same scenarios, seeds and faults, ranked as <code>spiralbench arena</code> ranks them.</p>` : ''}
<div class="table-wrap"><table>
<thead><tr><th class="num">#</th><th>arm</th><th class="num">success<br><span class="ci">[95% CI]</span></th><th class="num">Δ vs ${answer.baseline}<br><span class="ci">[95% CI]</span></th><th>across ${answer.members >= 3 ? `${answer.members} models` : 'models'}</th><th class="num">tool calls<br>p95</th><th class="num">input tokens<br>p95</th><th class="num">harmful<br>runs</th><th class="num">duplicate<br>side effects</th><th class="num">est. cost<br>per success</th></tr></thead>
<tbody>${answer.arms.map((arm) => armRow(arm, answer))}</tbody>
</table></div>
${sentences.length === 0 ? '' : html`<h3>What each arm buys, where it costs, how sure we are</h3><ul class="answers">${sentences.map(({ arm, text }) => html`<li><b>${arm}</b>: ${text}</li>`)}</ul>`}
<p class="muted">${robustnessNote(answer)} Success counts an escalation as the right outcome where a scenario is impossible; each scenario counts once in Δ. Tool calls and tokens are pooled over every run of the arm. Costs are estimates at list prices.</p>`;
}
