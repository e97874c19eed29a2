import { html, type SafeHtml } from './escape.js';
import { whole } from './format.js';
import type { TraceLine } from './report-input.js';
import { commandHtml, reasonWords, renderTimeline, verdictBadge } from './timeline.js';

/** How much of the page the timelines may take, and how many there may be at most. */
export interface DrillDownLimits {
  /** @default 40 */
  readonly maxTimelines: number;
  /** Characters of timeline markup, all timelines together. @default 1,500,000 */
  readonly maxChars: number;
  /** Traced runs without a timeline listed with their replay commands. @default 150 */
  readonly maxListed: number;
}

export const DEFAULT_DRILL_DOWN_LIMITS: DrillDownLimits = Object.freeze({
  maxTimelines: 40,
  maxChars: 1_500_000,
  maxListed: 150,
});

/** A traced run as the report shows it: with a timeline (and its anchor) or as a replay command only. */
export interface DrillDownRun {
  readonly trace: TraceLine;
  /** `run-<n>` when the run has a timeline in the page. */
  readonly anchor: string | undefined;
  readonly timeline: SafeHtml | undefined;
}

/**
 * Renders timelines for traced runs in priority order until either limit is reached; the
 * rest are listed with their replay commands. The page stays small however many runs
 * were traced.
 */
export function drillDownRuns(
  prioritised: readonly TraceLine[],
  limits: DrillDownLimits = DEFAULT_DRILL_DOWN_LIMITS,
): DrillDownRun[] {
  let chars = 0;
  let shown = 0;
  return prioritised.map((trace) => {
    if (shown >= limits.maxTimelines || chars >= limits.maxChars)
      return { trace, anchor: undefined, timeline: undefined };
    const anchor = `run-${shown + 1}`;
    const timeline = renderTimeline(trace, anchor);
    chars += timeline.toString().length;
    shown += 1;
    return { trace, anchor, timeline };
  });
}

function runRow(run: DrillDownRun): SafeHtml {
  const { trace } = run;
  return html`<tr>
<td>${run.anchor === undefined ? html`<span class="muted">—</span>` : html`<a href="#${run.anchor}">${run.anchor.replace('run-', '#')}</a>`}</td>
<td class="name">${trace.scenario}</td><td class="name">${trace.arm}</td><td class="num">${trace.seed}</td>
<td>${reasonWords(trace.reasons)}</td><td>${verdictBadge(trace.record.verdict)}</td>
<td class="num">${whole(trace.record.tool_calls)}</td><td class="num">${whole(trace.record.input_tokens)}</td>
<td>${commandHtml(trace.replay)}</td>
</tr>`;
}

const HEAD = html`<thead><tr><th>timeline</th><th>scenario</th><th>arm</th><th class="num">seed</th><th>picked for</th><th>verdict</th><th class="num">tool calls</th><th class="num">input tokens</th><th>reproduce</th></tr></thead>`;

/** The drill-down: a table of the traced runs, linked to their timelines, then the timelines. */
export function drillDownSection(
  runs: readonly DrillDownRun[] | undefined,
  limits: DrillDownLimits = DEFAULT_DRILL_DOWN_LIMITS,
): SafeHtml {
  if (runs === undefined) {
    return html`<p class="note">This sweep has no <code>traces.jsonl</code> (sweeps made before traces were saved, and sweeps against a real model, have none), so there is no drill-down. Any run of a simulated sweep replays exactly: <code class="cmd">spiralbench replay --scenario &lt;id&gt; --arm &lt;arm&gt; --seed &lt;n&gt;</code></p>`;
  }
  if (runs.length === 0)
    return html`<p class="note">The sweep's <code>traces.jsonl</code> is empty: no run was selected for tracing.</p>`;
  const shown = runs.filter((run) => run.anchor !== undefined);
  const rest = runs.filter((run) => run.anchor === undefined);
  const listed = rest.slice(0, limits.maxListed);
  const unlisted = rest.length - listed.length;
  return html`<div class="table-wrap"><table>${HEAD}<tbody>${shown.map(runRow)}</tbody></table></div>
${rest.length === 0 ? '' : html`<details><summary>${whole(rest.length)} more traced runs without a timeline here, to keep the page small: replay them</summary><div class="table-wrap"><table>${HEAD}<tbody>${listed.map(runRow)}</tbody></table></div>${unlisted === 0 ? '' : html`<p class="muted">…and ${whole(unlisted)} more, in the sweep's traces.jsonl.</p>`}</details>`}
${shown.map((run) => run.timeline)}`;
}
