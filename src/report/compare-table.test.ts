import { describe, expect, it } from 'vitest';
import { compare, resolveCompareOptions } from './compare.js';
import { renderCompareTable, renderCompareText } from './compare-table.js';
import type { SweepCell } from './read-sweep.js';
import { runColumns } from './sweep-cell.test-helpers.js';

function cell(arm: string, successes: number, calls: (i: number) => number = (i) => 5 + (i % 20)): SweepCell {
  const n = 100;
  return {
    scenario: 'fetch-transform-write',
    arm,
    impossible: false,
    trials: n,
    successes,
    escalated: 0,
    toolCalls: Float64Array.from({ length: n }, (_, i) => calls(i)),
    inputTokens: Float64Array.from({ length: n }, (_, i) => 10_000 + i * 10),
    outputTokens: new Float64Array(n),
    ...runColumns(n, { successes }),
  };
}

/** 4,000 runs, `successes` of them right: enough seeds for a narrow interval. */
function bigCell(successes: number): Partial<SweepCell> {
  const n = 4000;
  return {
    trials: n,
    successes,
    toolCalls: Float64Array.from({ length: n }, (_, i) => 5 + (i % 20)),
    inputTokens: Float64Array.from({ length: n }, (_, i) => 10_000 + (i % 100) * 10),
    outputTokens: new Float64Array(n),
    ...runColumns(n, { successes }),
  };
}

const options = resolveCompareOptions({ resamples: 200 });
const sources = { a: 'results/base', b: 'results/cand' };

describe('renderCompareTable', () => {
  it('shows each cell with its rates, differences, intervals, robustness and verdict', () => {
    const comparison = compare(
      [cell('none', 60), cell('classify', 60), cell('budget', 60)],
      [cell('none', 90), cell('classify', 58), cell('budget', 30)],
      options,
    );
    const table = renderCompareTable(comparison);
    expect(table).toMatch(
      /│ none\s+│ fetch-transform-write │ 60\.0% → 90\.0%\s+│ one model: not assessed │ 23\.1 → 23\.1\s+│ 10,495 → 10,495\s+│ improved\s+│/,
    );
    // Newcombe for 60/100 → 90/100: +0.3 [+0.1828, +0.4078]; Fisher p = 1.243e-6 (SciPy). Equal metrics: 0, interval around 0.
    expect(table).toMatch(
      /│\s+│\s+│ \+30\.0 pts \[\+18\.3, \+40\.8\] \*\s+│\s+│ 0 \[-\d, \+\d\] 0%\s+│ 0 \[-\d+, \+\d+\] 0%\s+│\s+│\n│\s+│\s+│ p = 1\.2e-6 /,
    );
    expect(table).toMatch(/│ classify\s+│ fetch-transform-write │ 60\.0% → 58\.0%\s+│ .* │\s+│/);
    expect(table).toMatch(
      /│ budget\s+│ fetch-transform-write │ 60\.0% → 30\.0%\s+│ .* │ regressed\s+│\n.* │ REGRESSION\s+│/,
    );
    expect(table).not.toContain('\u001b[');
    expect(renderCompareTable(comparison, { color: true })).toContain('\u001b[31mregressed');
  });
});

describe('renderCompareText', () => {
  it('says when nothing regressed', () => {
    const text = renderCompareText(compare([cell('none', 60)], [cell('none', 60)], options), sources);
    expect(text.split('\n').slice(0, 2)).toEqual(['A: results/base', 'B: results/cand']);
    expect(text).toMatch(
      /\nregression = significant at 95% .* success -2 pts, p95 tool calls \+10%, median input tokens \+10%; the gate fails only on success \(--gate\)\n/,
    );
    expect(text).toContain('\nacross models: not assessed, the sweeps ran one model');
    // 60% on 100 seeds both times: no regression, but the seeds cannot rule out a 13-point drop.
    expect(text).toContain('\nVerdict: inconclusive (1 inconclusive; 1 cell)\n');
    expect(text).toMatch(
      /\n {2}inconclusive fetch-transform-write · none: the interval \[-13\.\d, \+13\.\d\] allows a drop of up to 13\.\d points \(tolerance 5\); run more seeds\n/,
    );
    expect(text.trimEnd().split('\n').at(-1)).toBe('Gate (success): passed, no significant regression.');
  });

  it('says unchanged when the interval is inside the tolerance', () => {
    const big = (successes: number) => ({ ...cell('none', 0), ...bigCell(successes) });
    const text = renderCompareText(compare([big(2560)], [big(2560)], options), sources);
    expect(text).toContain('\nVerdict: unchanged (1 unchanged; 1 cell)\n');
    expect(text).not.toContain('inconclusive');
  });

  it('escapes control characters in names from results files and paths', () => {
    const evil = { ...cell('none\u001b[2J', 60), scenario: 'x\u0007y' };
    const text = renderCompareText(compare([evil], [evil], options), { a: 'a\u001b]0;t', b: 'b' });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(text).toContain('none\\x1b[2J');
    expect(text).toContain('A: a\\x1b]0;t');
  });

  it('lists each regressed cell with what got worse, and unmatched cells', () => {
    const text = renderCompareText(
      compare([cell('none', 60), cell('stuck', 50)], [cell('none', 30, (i) => 5 + (i % 40))], options),
      sources,
    );
    expect(text).toContain('only in A (not compared): fetch-transform-write · stuck');
    // Fisher [[60,40],[30,70]]: 3.3046e-5 (SciPy). p95 of 5 + (i % 40), i < 100: residues 0–19 three times, 20–39
    // twice; index 94.05 falls between two 37s → 42, against 23.05 in A (+82%).
    expect(text).toContain(
      '\n  regressed fetch-transform-write · none: success 60.0% → 30.0% (-30.0 pts, p = 3.3e-5); p95 tool calls 23.1 → 42 (+82%)\n',
    );
    // The gate looks at success only: the p95 rise is reported, not gated.
    expect(text).toContain(
      'Gate (success): 1 cell regressed:\n  REGRESSION fetch-transform-write · none: success 60.0% → 30.0% (-30.0 pts, p = 3.3e-5)',
    );
  });
});
