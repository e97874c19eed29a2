import { datasetTasksOf } from '../dataset-tasks.js';
import type { CellSummary } from '../../stats/cell-summary.js';
import type { Distribution } from '../../stats/descriptive.js';
import { heatmap, p95Cell, successCell } from './ablation-chart.js';
import { distributionChart, tailChart, type RunMarker } from './distribution-chart.js';
import { distributions } from './distribution-data.js';
import {
  DEFAULT_DRILL_DOWN_LIMITS,
  drillDownRuns,
  drillDownSection,
  type DrillDownLimits,
  type DrillDownRun,
} from './drill-down-section.js';
import { prioritiseTraces } from './drill-down-select.js';
import { html, type SafeHtml } from './escape.js';
import { whole } from './format.js';
import { headlineChart } from './headline-chart.js';
import { headline } from './headline-data.js';
import { headlineNotes, headlineScenario } from './headline-section.js';
import { figure, page, type TocEntry } from './page.js';
import { provenanceSection, sweepDate } from './provenance-section.js';
import { renderChart, type RenderedChart } from './render-chart.js';
import type { ReportInput } from './report-input.js';
import { conclusionsOf } from '../run-conclusions.js';
import { answerSection } from './answer-section.js';

/** The HTML report and what went into it. */
export interface BuiltReport {
  readonly html: string;
  readonly charts: readonly RenderedChart[];
  /** Traced runs with a timeline in the page, and traced runs in all (undefined without traces.jsonl). */
  readonly timelines: number;
  readonly traced: number | undefined;
}

const section = (id: string, title: string, intro: SafeHtml | string, body: SafeHtml | readonly SafeHtml[]) =>
  html`<section class="block" id="${id}"><h2>${title}</h2><p class="intro">${intro}</p>${body}</section>`;

/**
 * Builds the self-contained HTML report of a sweep: headline, distributions, ablation,
 * drill-down and provenance, every chart rendered to SVG here. Everything comes from the
 * saved results (no clock, no randomness), so the same results give the same bytes.
 */
export async function buildReport(
  input: ReportInput,
  limits: DrillDownLimits = DEFAULT_DRILL_DOWN_LIMITS,
): Promise<BuiltReport> {
  const { summary } = input;
  const arms = summary.arms.map((arm) => arm.name);
  const scenarioIds = summary.scenarios.map((scenario) => scenario.id);
  const scenarioAnchor = (index: number) => `scenario-${index + 1}`;
  const top = headline(summary);
  const dists = distributions(input.runs);
  const conclusions = conclusionsOf(input.runs, summary);
  const hasAnswer = conclusions.answer.arms.length > 1;
  const drill: DrillDownRun[] | undefined =
    input.traces === undefined ? undefined : drillDownRuns(prioritiseTraces(input.traces), limits);

  const charts: RenderedChart[] = [];
  const chart = async (label: string, spec: Parameters<typeof renderChart>[2]) => {
    const rendered = await renderChart(`chart-${charts.length + 1}`, label, spec);
    charts.push(rendered);
    return rendered;
  };

  // 1. Headline.
  const headlineBlocks: SafeHtml[] = [];
  for (const [index, scenario] of top.scenarios.entries()) {
    const cells = summary.cells.filter((cell) => cell.scenario === scenario.id);
    const rendered = await chart(`${scenario.id}: success and verdicts by arm`, headlineChart(scenario, cells, arms));
    headlineBlocks.push(
      headlineScenario(scenario, scenarioAnchor(index), rendered, arms, hasAnswer ? conclusions : undefined),
    );
  }

  // 2. Distributions, with the traced runs marked and linked.
  const distributionBlocks: SafeHtml[] = [];
  for (const [index, dist] of dists.entries()) {
    const cells = summary.cells.filter((cell) => cell.scenario === dist.scenario);
    const stats = (pick: 'tool_calls' | 'input_tokens') =>
      new Map<string, Distribution>(cells.map((cell) => [cell.arm, cell[pick]]));
    const markers: RunMarker[] = (drill ?? [])
      .filter((run) => run.anchor !== undefined && run.trace.scenario === dist.scenario)
      .map((run) => ({
        arm: run.trace.arm,
        toolCalls: run.trace.record.tool_calls,
        inputTokens: run.trace.record.input_tokens,
        href: `#${run.anchor}`,
        label: `${run.anchor}: seed ${run.trace.seed}, ${run.trace.record.verdict}`,
      }));
    const calls = await chart(
      `${dist.scenario}: tool calls per run by arm`,
      distributionChart('toolCalls', dist.cells, stats('tool_calls'), markers, arms),
    );
    const tail = await chart(
      `${dist.scenario}: share of runs above each tool-call count`,
      tailChart('toolCalls', dist.cells, arms),
    );
    const tokens = await chart(
      `${dist.scenario}: input tokens per run by arm`,
      distributionChart('inputTokens', dist.cells, stats('input_tokens'), markers, arms),
    );
    const legend = markers.length === 0 ? '' : ' ▼ marks a traced run: click it to open its timeline.';
    distributionBlocks.push(html`<div class="scenario" id="dist-${index + 1}"><h3>${dist.scenario}</h3>
${figure(calls, `Tool calls per run, one row per arm, on one log axis. Bars: share of the arm's runs in each bin (square-root scale, so a thin tail still shows). Solid line: median; dashed: p95.${legend}`)}
${figure(tail)}
${figure(tokens, `Input tokens per run. Every model call resends the transcript, so tokens grow roughly with the square of the calls: the tail is longer here.${legend}`)}
</div>`);
  }

  // 3. Ablation.
  const impossible = new Set(
    summary.scenarios.filter((scenario) => scenario.impossible).map((scenario) => scenario.id),
  );
  const p95Intervals = new Map(
    dists.flatMap((dist) =>
      dist.cells.map((cell) => [JSON.stringify([dist.scenario, cell.arm]), cell.toolCalls.p95Interval] as const),
    ),
  );
  const successMap = await chart(
    'success rate by scenario and arm',
    heatmap(
      summary.cells.map((cell) =>
        successCell(cell.scenario, cell.arm, impossible.has(cell.scenario) ? cell.right_outcome : cell.success),
      ),
      scenarioIds,
      arms,
      {
        title: 'Success rate',
        subtitle: `95% Wilson interval in brackets${impossible.size > 0 ? ' · impossible scenarios: the right outcome (escalated)' : ''}`,
        kind: 'rate',
      },
    ),
  );
  const p95Map = await chart(
    'p95 tool calls by scenario and arm',
    heatmap(
      summary.cells.map((cell) =>
        p95Cell(
          cell.scenario,
          cell.arm,
          cell.tool_calls.p95,
          p95Intervals.get(JSON.stringify([cell.scenario, cell.arm])) ?? {
            low: cell.tool_calls.p95,
            high: cell.tool_calls.p95,
          },
        ),
      ),
      scenarioIds,
      arms,
      {
        title: 'p95 tool calls',
        subtitle: '95% interval of the p95 in brackets (order statistics); darker is a fatter tail',
        kind: 'count',
      },
    ),
  );
  const passHatK = html`<h3>pass^k</h3><p class="muted">How reliably an arm gets the right outcome k times in a row, each scenario one task and a dataset's rows a task each (τ-bench).</p>
<div class="table-wrap"><table class="compact"><thead><tr><th>arm</th>${Object.keys(summary.pass_hat_k[0]?.k ?? {}).map((k) => html`<th class="num">k=${k}</th>`)}</tr></thead>
<tbody>${summary.pass_hat_k.map((entry) => html`<tr><td>${entry.arm}</td>${Object.values(entry.k).map((value) => html`<td class="num">${value.toFixed(3)}</td>`)}</tr>`)}</tbody></table></div>`;

  // 4. Drill-down and 5. provenance.
  const timelines = drill?.filter((run) => run.anchor !== undefined).length ?? 0;
  const runs = summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  const date = input.meta === undefined ? 'date not recorded' : `sweep finished ${sweepDate(input.meta.finished_at)}`;

  const header = html`<header class="top"><div class="eyebrow">spiralbench comparison report</div><h1>${input.name}</h1>
<p>${whole(runs)} runs · model ${summary.model} · ${scenarioIds.length} ${scenarioIds.length === 1 ? 'scenario' : 'scenarios'} × ${arms.length} arms × ${whole(summary.seeds.count)} seeds · sweep seed ${summary.sweep_seed} · ${date}</p>
${summary.live === undefined ? '' : html`<p><strong>${summary.live.note}</strong> (tool timeout ${summary.live.timeout_ms} ms)</p>`}
<div class="cards"><div class="card"><b>${whole(runs)}</b><span>runs</span></div><div class="card"><b>${scenarioIds.length}</b><span>${scenarioIds.length === 1 ? 'scenario' : 'scenarios'}</span></div><div class="card"><b>${arms.length}</b><span>arms</span></div><div class="card"><b>${whole(summary.seeds.count)}</b><span>seeds per cell</span></div><div class="card"><b>${timelines}</b><span>run timelines</span></div></div>
</header>`;

  const body = [
    section(
      'headline',
      'Headline: what each safeguard buys',
      'For each scenario, the arms side by side: how often the run really succeeded (judged on the world), how many tool calls and tokens it took, what it would cost, and how the runs ended.',
      [...headlineBlocks, headlineNotes(top, summary.model)],
    ),
    section(
      'distributions',
      'Distributions',
      'Where the runs fall, not just their median: without safeguards a long, fat tail of spiralling runs; with them a tight cluster.',
      distributionBlocks,
    ),
    section(
      'ablation',
      'Ablation',
      'Every arm on every scenario at once: the success rate, and the p95 of tool calls, each with its 95% interval.',
      [figure(successMap), figure(p95Map), passHatK, ...datasetTaskTables(summary.cells)],
    ),
    section(
      'drill-down',
      'Drill-down: selected runs',
      'The worst runs by tool calls, and samples of failures, harmful runs and escalations, each with its whole timeline on virtual time and the command that replays it byte for byte.',
      drillDownSection(drill, limits),
    ),
    ...(hasAnswer
      ? [
          section(
            'answer',
            conclusions.answer.arena
              ? 'The answer: arena leaderboard and what each arm buys'
              : 'The answer: which safeguard is worth it',
            `Every arm over all ${conclusions.answer.scenarios.length === 1 ? 'of the scenario' : `${conclusions.answer.scenarios.length} scenarios`}, against ${conclusions.answer.baseline}: success, tail, harm and cost, and how sure the sweep is of each gain. Generated from the numbers above.`,
            answerSection(conclusions.answer),
          ),
        ]
      : []),
    section(
      'provenance',
      'Provenance',
      'Where these numbers came from. The date is the sweep’s own (meta.json), not when this report was made.',
      provenanceSection(summary, input.meta),
    ),
  ];

  const toc: TocEntry[] = [
    {
      id: 'headline',
      title: 'Headline',
      children: top.scenarios.map((scenario, index) => ({ id: scenarioAnchor(index), title: scenario.id })),
    },
    {
      id: 'distributions',
      title: 'Distributions',
      children: dists.map((dist, index) => ({ id: `dist-${index + 1}`, title: dist.scenario })),
    },
    { id: 'ablation', title: 'Ablation' },
    { id: 'drill-down', title: `Drill-down${drill === undefined ? '' : ` (${timelines})`}` },
    ...(hasAnswer
      ? [{ id: 'answer', title: conclusions.answer.arena ? 'The answer (leaderboard)' : 'The answer' }]
      : []),
    { id: 'provenance', title: 'Provenance' },
  ];

  return {
    html: page({ title: `spiralbench report: ${input.name}`, toc, header, body }),
    charts,
    timelines,
    traced: drill?.length,
  };
}

/** A dataset scenario's tasks, hardest first: each arm's right outcomes over its runs of the task. */
function datasetTaskTables(cells: readonly CellSummary[]): SafeHtml[] {
  return datasetTasksOf(cells).map(({ scenario, arms, hardest }) => {
    const byArm = arms.map(({ arm, tasks }) => ({ arm, byId: new Map(tasks.map((task) => [task.task, task])) }));
    return html`<h3>Tasks of ${scenario}</h3><p class="muted">Each row of the dataset is a task; right outcomes over the runs that played it, hardest first.</p>
<div class="table-wrap"><table class="compact"><thead><tr><th>task</th>${byArm.map(({ arm }) => html`<th class="num">${arm}</th>`)}</tr></thead>
<tbody>${hardest.map(
      (id) =>
        html`<tr><td>${id}</td>${byArm.map(({ byId }) => {
          const task = byId.get(id);
          return html`<td class="num">${task === undefined ? '–' : `${task.right}/${task.runs}`}</td>`;
        })}</tr>`,
    )}</tbody></table></div>`;
  });
}
