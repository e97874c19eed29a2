import { costMethod, formatDollars } from '../prices.js';
import { html, type SafeHtml } from './escape.js';
import {
  isSignificant,
  medP95Max,
  num,
  pct,
  pointsWithInterval,
  rateWithInterval,
  signedPoints,
  whole,
  words,
} from './format.js';
import type { Headline, HeadlineRow, HeadlineScenario } from './headline-data.js';
import { effectOf } from '../recommendation.js';
import type { RunConclusions } from '../run-conclusions.js';
import { robustnessBadge } from './answer-section.js';
import { figure } from './page.js';
import { armColors } from './palette.js';
import type { RenderedChart } from './render-chart.js';

function minBy<T>(items: readonly T[], value: (item: T) => number | undefined): T | undefined {
  let best: T | undefined;
  let bestValue = Infinity;
  for (const item of items) {
    const v = value(item);
    if (v !== undefined && v < bestValue) [best, bestValue] = [item, v];
  }
  return best;
}

/** The scenario's answer in one paragraph: the best arm, the tightest tail, the cheapest success. */
function lede(scenario: HeadlineScenario): SafeHtml {
  const base = scenario.rows.find((row) => row.arm === scenario.baseline);
  const best = minBy(scenario.rows, (row) => -row.rate.rate);
  // A row whose runs crashed has a short tail and a low bill for that reason alone: never picked.
  const clean = scenario.rows.filter(
    (row) => !row.outcomes.some(([outcome, count]) => outcome === 'failed' && count > 0),
  );
  const tightest = minBy(clean, (row) => row.toolCalls.p95);
  const cheapest = minBy(clean, (row) => row.costPerSuccess);
  const rateWord = scenario.impossible ? 'right outcome' : 'success';
  const parts: SafeHtml[] = [];
  if (best !== undefined) {
    const delta =
      best.vsBaseline === null
        ? ''
        : html` (${pointsWithInterval(best.vsBaseline)} vs ${scenario.baseline}${isSignificant(best.vsBaseline) ? '' : ', not significant'})`;
    parts.push(html`Highest ${rateWord}: <b>${best.arm}</b> at ${rateWithInterval(best.rate)}${delta}.`);
  }
  if (tightest !== undefined && base !== undefined && tightest !== base) {
    parts.push(
      html` Tightest tail: <b>${tightest.arm}</b>, p95 ${num(tightest.toolCalls.p95)} tool calls (worst ${num(tightest.toolCalls.max)}) against ${num(base.toolCalls.p95)} (worst ${num(base.toolCalls.max)}) for ${base.arm}.`,
    );
  }
  if (cheapest?.costPerSuccess !== undefined)
    parts.push(
      html` Cheapest per ${rateWord}: <b>${cheapest.arm}</b>, ${formatDollars(cheapest.costPerSuccess)} (estimate).`,
    );
  return html`<p class="lede">${parts}</p>`;
}

/** The across-models cell: how the arm's difference from the baseline holds across the ensemble's models. */
function acrossCell(entry: HeadlineRow, scenario: HeadlineScenario, conclusions: RunConclusions | undefined): SafeHtml {
  if (conclusions === undefined) return html``;
  const effect = effectOf(conclusions.effects, scenario.id, entry.arm);
  return html`<td>${effect === undefined ? html`<span class="muted">—</span>` : robustnessBadge(effect.success)}</td>`;
}

function row(
  entry: HeadlineRow,
  scenario: HeadlineScenario,
  color: string,
  best: number,
  conclusions: RunConclusions | undefined,
): SafeHtml {
  const delta =
    entry.vsBaseline === null
      ? html`<span class="muted">baseline</span>`
      : html`<span class="${!isSignificant(entry.vsBaseline) ? '' : entry.vsBaseline.estimate > 0 ? 'better' : 'worse'}">${signedPoints(entry.vsBaseline.estimate)} pts<br><span class="ci">[${signedPoints(entry.vsBaseline.low)}, ${signedPoints(entry.vsBaseline.high)}]</span></span>`;
  const others = entry.verdicts.filter(([kind]) => kind !== 'success');
  return html`<tr class="${entry.arm === scenario.baseline ? 'baseline' : ''}">
<td class="arm"><span class="swatch" style="background:${color}"></span>${entry.arm}</td>
<td class="num${entry.rate.rate === best ? ' best' : ''}">${pct(entry.rate.rate)}<br><span class="ci">[${(entry.rate.low * 100).toFixed(1)}, ${(entry.rate.high * 100).toFixed(1)}]</span></td>
<td class="num">${delta}</td>
${acrossCell(entry, scenario, conclusions)}
<td class="num">${medP95Max(entry.toolCalls)}</td>
<td class="num">${whole(entry.inputTokens.median)} / ${whole(entry.inputTokens.p95)}</td>
<td class="num">${entry.costPerRun === undefined ? 'n/a' : formatDollars(entry.costPerRun)}<br><span class="ci">${entry.costPerSuccess === undefined ? 'n/a' : formatDollars(entry.costPerSuccess)}</span></td>
<td>${entry.outcomes.map(([kind, n]) => html`<span class="chip">${words(kind)} ${whole(n)}</span>`)}${others.length === 0 ? '' : html`<br>${others.map(([kind, n]) => html`<span class="chip v-${kind}">${kind} ${whole(n)}</span>`)}`}</td>
<td class="num">${whole(entry.duplicateSideEffects)}</td>
</tr>`;
}

function runsPerArm(scenario: HeadlineScenario): string {
  const counts = [...new Set(scenario.rows.map((entry) => entry.runs))];
  return counts.length === 1
    ? `${whole(counts[0]!)} runs per arm`
    : `${whole(Math.min(...counts))} to ${whole(Math.max(...counts))} runs per arm`;
}

/** One scenario's headline: the sentence, the chart, the table. */
export function headlineScenario(
  scenario: HeadlineScenario,
  anchor: string,
  chart: RenderedChart,
  arms: readonly string[],
  conclusions?: RunConclusions,
): SafeHtml {
  const colors = armColors(arms);
  const best = Math.max(...scenario.rows.map((entry) => entry.rate.rate));
  const rateHead = html`${scenario.impossible ? 'right outcome' : 'success'}<br><span class="ci">[95% CI]</span>`;
  return html`<div class="scenario" id="${anchor}">
<h3>${scenario.id}${scenario.impossible ? html`<span class="tag">impossible: the right outcome is to escalate</span>` : ''} <span class="muted small">${runsPerArm(scenario)}</span></h3>
${lede(scenario)}
${figure(chart)}
<div class="table-wrap"><table>
<thead><tr><th>arm</th><th class="num">${rateHead}</th><th class="num">Δ vs ${scenario.baseline}<br><span class="ci">[95% CI]</span></th>${conclusions === undefined ? '' : html`<th>across models</th>`}<th class="num">tool calls<br>med / p95 / max</th><th class="num">input tokens<br>med / p95</th><th class="num">est. cost per run<br><span class="ci">per ${scenario.impossible ? 'right outcome' : 'success'}</span></th><th>loop outcomes<br><span class="ci">then verdicts other than success</span></th><th class="num">duplicate<br>writes</th></tr></thead>
<tbody>${scenario.rows.map((entry) => row(entry, scenario, colors[arms.indexOf(entry.arm)] ?? '#94a3b8', best, conclusions))}</tbody>
</table></div>
</div>`;
}

/** The note under the headline: how rates, differences and costs were made. */
export function headlineNotes(headlineData: Headline, model: string): SafeHtml {
  const { price } = headlineData;
  const cost =
    price === undefined
      ? html`No price is known for model <code>${model}</code>, so costs are n/a.`
      : html`Costs are <b>estimates</b>, ${costMethod(price, headlineData.costsRecorded)}; per success divides by the runs that got the right outcome.`;
  return html`<p class="muted">Rates carry 95% Wilson intervals; Δ is the difference from the baseline arm with Newcombe's 95% interval, in <span class="better">green</span> or <span class="worse">red</span> where the interval leaves out 0. Verdicts are judged on the world the run left behind, never on what the model said; a duplicate write is a side effect done twice. ${cost}</p>`;
}
