import type { StoredSummary } from '../../results/summary-schema.js';
import { VERSION } from '../../version.js';
import { html, type HtmlValue, type SafeHtml } from './escape.js';
import { whole } from './format.js';
import type { SweepMetaFile } from './report-input.js';

/** An ISO timestamp as "2026-11-22 06:31:16 UTC", read from the string (no clock, no locale). */
export function sweepDate(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]} UTC`;
}

function settings(guard: Readonly<Record<string, unknown>>): SafeHtml {
  const fields = Object.entries(guard).filter(([key]) => key !== 'guard');
  return html`<span class="chip setting"><b>${String(guard['guard'])}</b>${fields.map(([key, value]) => html` ${key}=${JSON.stringify(value)}`)}</span>`;
}

const pair = (term: string, value: HtmlValue) => html`<dt>${term}</dt><dd>${value}</dd>`;

/**
 * Where the numbers came from: versions, commit, Node, seeds, model, the arms with every
 * guard setting, the scenarios with their hashes, and when the sweep ran (from meta.json,
 * never the time the report was made).
 */
export function provenanceSection(summary: StoredSummary, meta: SweepMetaFile | undefined): SafeHtml {
  const runs = summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  const missing = html`<span class="muted">not recorded (no meta.json)</span>`;
  return html`<dl class="kv">
${pair('spiralbench (sweep)', summary.spiralbench)}
${pair('spiralbench (report)', VERSION)}
${pair('git commit', meta === undefined ? missing : meta.git_commit === null ? html`<span class="muted">none (not run from a git checkout)</span>` : html`<code>${meta.git_commit}</code>`)}
${pair('Node.js', meta === undefined ? missing : meta.node)}
${pair('sweep started', meta === undefined ? missing : sweepDate(meta.started_at))}
${pair('sweep finished', meta === undefined ? missing : html`${sweepDate(meta.finished_at)} <span class="muted">(${meta.wall_seconds} s wall time on ${meta.workers} worker${meta.workers === 1 ? '' : 's'})</span>`)}
${pair('command', meta === undefined ? missing : html`<code>${meta.command}</code>`)}
${pair('model', summary.model)}
${pair('sweep seed', String(summary.sweep_seed))}
${pair('run seeds', `${summary.seeds.base}..${summary.seeds.base + summary.seeds.count - 1} (${whole(summary.seeds.count)} per scenario and arm)`)}
${pair('shard', summary.shard === null ? 'whole sweep' : `${summary.shard.index} of ${summary.shard.count}`)}
${pair('runs', whole(runs))}
</dl>
<h3>Arms</h3>
<div class="table-wrap"><table><thead><tr><th>arm</th><th>guards, in the order they are consulted, with their settings</th></tr></thead>
<tbody>${summary.arms.map((arm) => html`<tr><td class="name">${arm.name}</td><td>${peerOf(arm) !== undefined ? html`<span class="muted">another framework's loop:</span> ${settings(peerOf(arm)!)}` : arm.guards.length === 0 ? html`<span class="muted">no guards (a 250-iteration ceiling still ends every run)</span>` : arm.guards.map((guard) => settings(guard as unknown as Readonly<Record<string, unknown>>))}</td></tr>`)}</tbody></table></div>
<h3>Scenarios</h3>
<div class="table-wrap"><table><thead><tr><th>scenario</th><th class="num">tool budget (task class)</th><th>impossible</th><th>hash (sha256 of the scenario and persona files)</th></tr></thead>
<tbody>${summary.scenarios.map((scenario) => html`<tr><td>${scenario.id}</td><td class="num">${scenario.tool_budget}</td><td>${scenario.impossible ? 'yes: escalating is the right outcome' : 'no'}</td><td><code>${scenario.hash}</code></td></tr>`)}</tbody></table></div>`;
}

/** A peer arm's framework settings (summary.json writes them under `peer`), if the arm is one. */
function peerOf(arm: object): Readonly<Record<string, unknown>> | undefined {
  const peer = (arm as { readonly peer?: unknown }).peer;
  return typeof peer === 'object' && peer !== null ? (peer as Readonly<Record<string, unknown>>) : undefined;
}
