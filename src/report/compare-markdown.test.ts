import { describe, expect, it } from 'vitest';
import { compare, resolveCompareOptions } from './compare.js';
import { escapeCell, renderCompareMarkdown } from './compare-markdown.js';
import type { SweepCell } from './read-sweep.js';
import { runColumns } from './sweep-cell.test-helpers.js';

function cell(
  scenario: string,
  arm: string,
  successes: number,
  calls: (i: number) => number = (i) => 5 + (i % 20),
): SweepCell {
  const n = 100;
  return {
    scenario,
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

/** The cells of a Markdown table row, split on the pipes that are not escaped. */
const cellsOf = (line: string) => line.slice(2, -2).split(/(?<!\\)\|/);
const options = resolveCompareOptions({ resamples: 200 });
const sources = { a: 'results/base', b: 'results/cand' };

describe('escapeCell', () => {
  it('escapes pipes, neutralises HTML and turns line breaks into <br>', () => {
    expect(escapeCell('a|b\nc\r\nd <x> & y')).toBe('a\\|b<br>c<br>d &lt;x&gt; &amp; y');
  });
});

describe('renderCompareMarkdown', () => {
  it('is a heading, one table with a row per cell, and a line saying nothing regressed', () => {
    const markdown = renderCompareMarkdown(
      compare(
        [cell('s1', 'none', 60), cell('s|2', 'none', 60)],
        [cell('s1', 'none', 61), cell('s|2', 'none', 60)],
        options,
      ),
      sources,
    );
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('## spiralbench compare');
    expect(markdown).toContain('A: `results/base` → B: `results/cand`');
    const table = lines.filter((line) => line.startsWith('| '));
    expect(table).toHaveLength(4); // header, separator, two rows
    for (const row of table) expect(cellsOf(row)).toHaveLength(7);
    expect(table[3]).toContain('s\\|2');
    expect(table[2]).toContain('60.0% → 61.0%<br>+1.0 pts [');
    // 100 seeds a side cannot rule out a drop beyond the 5-point tolerance.
    expect(markdown).toContain('\n**Verdict: inconclusive (2 inconclusive; 2 cells)**\n');
    expect(markdown).toMatch(
      /\n- inconclusive: s1 · none: the interval \[-12\.\d, \+14\.\d\] allows a rise of up to 14\.\d points/,
    );
    expect(markdown).toContain('\nGate (success): passed, no significant regression.\n');
    expect(table[2]).toContain('| one model: not assessed |');
    expect(markdown).not.toContain('REGRESSION');
  });

  it('marks a regressed cell and lists what regressed', () => {
    const markdown = renderCompareMarkdown(
      compare(
        [cell('s1', 'classify', 90, (i) => 5 + (i % 10))],
        [cell('s1', 'none', 60)],
        resolveCompareOptions({ resamples: 200, armA: 'classify', armB: 'none' }),
      ),
      sources,
    );
    const row = markdown.split('\n').find((line) => line.startsWith('| classify → none'));
    expect(row && cellsOf(row)[6]?.trim()).toBe('regressed<br>**REGRESSION**');
    expect(markdown).toContain('Gate (success): **REGRESSION** in 1 cell:');
    // Fisher [[90,10],[60,40]] = 1.243e-6 (SciPy); p95 of 5 + (i % 10) is 14, of 5 + (i % 20) is 23.05 (+64.6%)
    expect(markdown).toMatch(
      /\n- regressed: s1 · classify → none: success 90\.0% → 60\.0% \(-30\.0 pts, p = 1\.2e-6\); p95 tool calls 14 → 23\.1 \(\+65%\)\n/,
    );
    expect(markdown).toMatch(/\n- s1 · classify → none: success 90\.0% → 60\.0% \(-30\.0 pts, p = 1\.2e-6\)\n/);
    expect(markdown).not.toContain('passed, no significant regression');
  });

  it('names the cells found in one sweep only', () => {
    const markdown = renderCompareMarkdown(
      compare(
        [cell('s1', 'none', 60), cell('s1', 'budget', 60)],
        [cell('s1', 'none', 60), cell('s2', 'none', 60)],
        options,
      ),
      sources,
    );
    expect(markdown).toContain('Not compared (in one sweep only): A: s1 · budget, B: s2 · none');
  });
});
