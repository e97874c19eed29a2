import { describe, expect, it } from 'vitest';
import type { StoredSummary } from '../results/summary-schema.js';
import type { CellSummary } from '../stats/cell-summary.js';
import { wilson } from '../stats/wilson.js';
import { renderHeadlineCsv } from './html/headline-csv.js';
import { renderMarkdownSummary } from './markdown-summary.js';

const EVIL = '<img src=x onerror=alert(1)>|x';

function cell(
  arm: string,
  successes: number,
  calls: { median: number; p95: number; max: number },
  tokens: { mean: number; out: number },
  extra: Partial<CellSummary> = {},
): CellSummary {
  const d = (median: number, p95: number, max: number, mean = median) => ({ median, p95, max, mean });
  return {
    scenario: EVIL,
    arm,
    runs: 100,
    success: wilson(successes, 100),
    right_outcome: wilson(successes, 100),
    verdicts: { success: successes, escalated: 0, failure: 100 - successes - 2, harmful: 2 },
    outcomes: { completed: 90, budget_exhausted: 10, escalated: 0, max_iterations: 0, cancelled: 0, failed: 0 },
    tool_calls: d(calls.median, calls.p95, calls.max),
    tool_executions: d(calls.median, calls.p95, calls.max),
    model_calls: d(calls.median + 1, calls.p95 + 1, calls.max + 1),
    input_tokens: d(12_000, 200_000, 900_000, tokens.mean),
    output_tokens: d(700, 3000, 9000, tokens.out),
    virtual_ms: d(50_000, 300_000, 900_000),
    duplicate_side_effects: 2,
    ...extra,
  };
}

const SUMMARY: StoredSummary = {
  spiralbench: '0.1.0',
  sweep_seed: 0,
  seeds: { base: 1, count: 100 },
  model: 'simulated',
  shard: null,
  scenarios: [{ id: EVIL, hash: 'abc', tool_budget: 15, impossible: false }],
  arms: [
    { name: 'none', guards: [] },
    { name: 'classify', guards: [{ guard: 'classify', maxRetries: 3, backoffMs: [1000, 2000, 4000] }] },
  ],
  cells: [
    cell('none', 65, { median: 12, p95: 89, max: 217 }, { mean: 60_000, out: 1000 }),
    cell('classify', 90, { median: 8, p95: 31.1, max: 210 }, { mean: 10_000, out: 500 }),
  ],
  pass_hat_k: [
    { arm: 'none', k: { '1': 0.65 } },
    { arm: 'classify', k: { '1': 0.9 } },
  ],
};

describe('renderMarkdownSummary', () => {
  const text = renderMarkdownSummary(SUMMARY, { name: 'nightly', date: 'sweep finished 2026-11-22 06:31:16 UTC' });

  it('heads the summary with the sweep and gives a table per scenario with a row per arm', () => {
    expect(text).toMatch(
      /^## spiralbench report: nightly\n\n200 runs · model simulated · sweep seed 0 · run seeds 1\.\.100 · sweep finished 2026-11-22 06:31:16 UTC\n/,
    );
    expect(text).toContain(
      '| arm | runs | success [95% CI] | Δ vs none [95% CI] | tool calls med / p95 / max | input tokens med / p95 | est. cost / run | est. cost / success | outcomes | other verdicts | duplicate writes |',
    );
    // none: 60,000 × $3/M + 1,000 × $15/M = $0.195 a run; / 0.65 = $0.300 a success.
    expect(text).toContain(
      '| none | 100 | 65.0% [55.3, 73.6] | — | 12 / 89 / 217 | 12,000 / 200,000 | $0.195 | $0.300 | completed 90, budget exhausted 10 | failure 33, harmful 2 | 2 |',
    );
    expect(text).toMatch(
      /\| classify \| 100 \| \*\*90\.0% \[82\.6, 94\.5\]\*\* \| \+25\.0 pts \[\+13\.6, \+35\.7\] \* \| 8 \/ 31\.1 \/ 210 \| .* \| \$0\.0375 \| \$0\.0417 \|/,
    );
  });

  it('escapes names for a table cell: no HTML, no stray pipes', () => {
    expect(text).toContain('### &lt;img src=x onerror=alert(1)&gt;\\|x');
    expect(text).not.toContain('<img');
  });

  it('says costs are estimates and how they were priced', () => {
    expect(text).toContain(
      'Costs are estimates, mean tokens per run × $3 / $15 per million input / output tokens (the simulated model priced as claude-sonnet-5-5).',
    );
  });
});

describe('renderHeadlineCsv', () => {
  it('writes one row per cell with unformatted numbers and names that a spreadsheet will not run as formulas', () => {
    const csv = renderHeadlineCsv({
      ...SUMMARY,
      arms: [...SUMMARY.arms, { name: '=cmd()', guards: [] }],
      cells: [...SUMMARY.cells, { ...SUMMARY.cells[0]!, arm: '=cmd()' }],
    });
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^scenario,arm,runs,impossible,rate,rate_low,rate_high,baseline_arm,vs_baseline,/);
    expect(lines[1]).toMatch(
      /^<img src=x onerror=alert\(1\)>\|x,none,100,false,0\.65,0\.5525,0\.7364,none,,,,12,89,217,12000,200000,700,0\.195,0\.3,claude-sonnet-5-5,65,0,33,2,90,10,0,0,0,0,0,0,2$/,
    );
    expect(lines[3]).toContain(",'=cmd(),");
  });
});
