import { describe, expect, it } from 'vitest';
import type { StoredSummary } from '../../results/summary-schema.js';
import type { CellSummary } from '../../stats/cell-summary.js';
import { describe as describeValues } from '../../stats/descriptive.js';
import { wilson } from '../../stats/wilson.js';
import type { SweepCell } from '../read-sweep.js';
import { runColumns } from '../sweep-cell.test-helpers.js';
import { buildReport } from './build-report.js';
import type { ReportInput } from './report-input.js';

const EVIL = '<img src=x onerror=alert(1)>';

/** A cell of `n` runs with a long tail (capped at `cap` calls), from a fixed sequence. */
function fakeCell(
  scenario: string,
  arm: string,
  n: number,
  cap: number,
  successes: number,
  impossible: boolean,
): { runs: SweepCell; cell: CellSummary } {
  const calls = Float64Array.from({ length: n }, (_, i) => Math.min(cap, Math.round(3 + 400 / (1 + ((i * 7919) % n)))));
  const tokens = calls.map((c) => 600 * c + 60 * c * c);
  const escalated = impossible ? Math.floor(n / 3) : 0;
  const right = wilson(successes + escalated, n);
  return {
    runs: {
      scenario,
      arm,
      impossible,
      trials: n,
      successes,
      escalated,
      toolCalls: calls,
      inputTokens: tokens,
      outputTokens: calls.map((c) => 50 * c),
      ...runColumns(n, { successes, escalated, impossible }),
    },
    cell: {
      scenario,
      arm,
      runs: n,
      success: wilson(successes, n),
      right_outcome: right,
      verdicts: { success: successes, escalated, failure: n - successes - escalated, harmful: 0 },
      outcomes: { completed: n, budget_exhausted: 0, escalated: 0, max_iterations: 0, cancelled: 0, failed: 0 },
      tool_calls: describeValues(calls),
      tool_executions: describeValues(calls),
      model_calls: describeValues(calls),
      input_tokens: describeValues(tokens),
      output_tokens: describeValues(calls.map((c) => 50 * c)),
      virtual_ms: describeValues(calls.map((c) => 1000 * c)),
      duplicate_side_effects: 0,
    },
  };
}

function fakeInput(): ReportInput {
  const made = [
    fakeCell('fetch-transform-write', 'none', 400, 250, 260, false),
    fakeCell('fetch-transform-write', 'article', 400, 15, 200, false),
    fakeCell(EVIL, 'none', 400, 250, 0, true),
    fakeCell(EVIL, 'article', 400, 15, 0, true),
  ];
  const summary: StoredSummary = {
    spiralbench: '0.1.0',
    sweep_seed: 0,
    seeds: { base: 1, count: 400 },
    model: 'simulated',
    shard: null,
    scenarios: [
      { id: 'fetch-transform-write', hash: 'h1', tool_budget: 15, impossible: false },
      { id: EVIL, hash: 'h2', tool_budget: 15, impossible: true },
    ],
    arms: [
      { name: 'none', guards: [] },
      { name: 'article', guards: [{ guard: 'budget', maxToolCalls: 'task-class', counts: 'requested' }] },
    ],
    cells: made.map((m) => m.cell),
    pass_hat_k: [
      { arm: 'none', k: { '1': 0.5 } },
      { arm: 'article', k: { '1': 0.4 } },
    ],
  };
  return {
    name: 'fake',
    summary,
    meta: undefined,
    traces: undefined,
    runs: {
      path: 'fake',
      runsFile: 'fake/runs.jsonl',
      runs: 1600,
      cells: made.map((m) => m.runs),
      models: ['simulated'],
      ensemble: undefined,
      shard: null,
      scenarioHashes: new Map(),
    },
  };
}

describe('buildReport', () => {
  it('renders every chart without a Vega-Lite warning, the same bytes twice', async () => {
    const first = await buildReport(fakeInput());
    // Per scenario: the headline, two distributions and the tail; then two heatmaps.
    expect(first.charts).toHaveLength(2 * 4 + 2);
    for (const chart of first.charts) {
      expect(chart.warnings, chart.label).toEqual([]);
      expect(first.html).toContain(`<figure class="chart" id="${chart.id}"`);
    }
    expect((await buildReport(fakeInput())).html).toBe(first.html);
  });

  it('has a target for every link in the page, charts included', async () => {
    const { html } = await buildReport(fakeInput());
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));
    const targets = [...html.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(ids, target).toContain(target);
  });

  it('escapes a hostile scenario name everywhere, and says what is missing without traces and meta.json', async () => {
    const { html, timelines, traced } = await buildReport(fakeInput());
    expect(html).not.toContain('<img');
    expect([...html.matchAll(/<script\b[^>]*>/g)].every((match) => match[0].includes('type="application/json"'))).toBe(
      true,
    );
    expect(html).toContain(
      '&lt;img src=x onerror=alert(1)&gt;<span class="tag">impossible: the right outcome is to escalate</span>',
    );
    expect(html).toContain('This sweep has no <code>traces.jsonl</code>');
    expect(html).toContain('<dt>sweep finished</dt><dd><span class="muted">not recorded (no meta.json)</span></dd>');
    expect([timelines, traced]).toEqual([0, undefined]);
  });

  it('says how each difference holds across models, and ends with the answer before the provenance', async () => {
    const { html } = await buildReport(fakeInput());
    expect(html).toContain('<th>across models</th>');
    expect(html).toContain('<span class="badge r-one" title="one model: not assessed">one model</span>');
    const answer = html.indexOf('<section class="block" id="answer">');
    expect(answer).toBeGreaterThan(html.indexOf('id="drill-down"'));
    expect(html.indexOf('id="provenance"')).toBeGreaterThan(answer);
    expect(html).toContain('<a href="#answer">The answer</a>');
    expect(html.slice(answer)).toMatch(
      /<p class="lede">(On one model only \(how it holds across models is not assessed\), )?(Recommended|recommended|Highest|highest|No arm beats|no arm beats)/,
    );
    expect(html.slice(answer)).toContain('Robustness across models: not assessed, the sweep ran one model');
  });
});
