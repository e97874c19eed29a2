import Table from 'cli-table3';
import type { Comparison, CompareRow } from './compare.js';
import { armLabel, metricLines, rowFindings, ruleLines, successLines } from './compare-format.js';

export interface CompareTextOptions {
  /** ANSI colours for the header, border and mark. @default false */
  readonly color?: boolean;
}

/** Where the two sides of a comparison came from, for the heading. */
export interface CompareSources {
  readonly a: string;
  readonly b: string;
}

const MARKS: Readonly<Record<CompareRow['mark'], string>> = {
  regression: 'REGRESSION',
  improved: 'improved',
  unchanged: '',
};
const COLOURS: Readonly<Record<CompareRow['mark'], [string, string]>> = {
  regression: ['\u001b[31m', '\u001b[39m'],
  improved: ['\u001b[32m', '\u001b[39m'],
  unchanged: ['', ''],
};

/** The comparison as one cli-table3 table, a row per matched cell. */
export function renderCompareTable(comparison: Comparison, options: CompareTextOptions = {}): string {
  const color = options.color === true;
  const table = new Table({
    head: [
      'arm',
      'scenario',
      'success A → B\nΔ [95% CI]\nFisher p',
      'p95 tool calls A → B\nΔ [95% CI]',
      'median input tokens A → B\nΔ [95% CI]',
      '',
    ],
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] },
  });
  for (const row of comparison.rows) {
    const [open, close] = color ? COLOURS[row.mark] : ['', ''];
    table.push([
      armLabel(row),
      row.impossible ? `${row.scenario}\n(impossible: an\nescalation counts\nas success)` : row.scenario,
      successLines(row.success).join('\n'),
      metricLines(row.toolCalls.p95).join('\n'),
      metricLines(row.inputTokens.median).join('\n'),
      `${open}${MARKS[row.mark]}${close}`,
    ]);
  }
  return table.toString();
}

/** The comparison for a terminal: sources, the table, unmatched cells, the rule, and the verdict. */
export function renderCompareText(
  comparison: Comparison,
  sources: CompareSources,
  options: CompareTextOptions = {},
): string {
  const lines = [`A: ${sources.a}`, `B: ${sources.b}`, renderCompareTable(comparison, options)];
  if (comparison.onlyInA.length > 0)
    lines.push(
      `only in A (not compared): ${comparison.onlyInA.map(({ scenario, arm }) => `${scenario} · ${arm}`).join(', ')}`,
    );
  if (comparison.onlyInB.length > 0)
    lines.push(
      `only in B (not compared): ${comparison.onlyInB.map(({ scenario, arm }) => `${scenario} · ${arm}`).join(', ')}`,
    );
  lines.push(...ruleLines(comparison), '');
  const regressed = comparison.rows.filter((row) => row.mark === 'regression');
  if (regressed.length === 0) {
    lines.push('No significant regressions.');
  } else {
    lines.push(
      `${regressed.length} ${regressed.length === 1 ? 'cell regressed' : 'cells regressed'}:`,
      ...regressed.map((row) => `  REGRESSION ${rowFindings(row, 'worse')}`),
    );
  }
  const improved = comparison.rows.filter((row) => row.findings.some((f) => f.direction === 'better'));
  for (const row of improved) lines.push(`  improved ${rowFindings(row, 'better')}`);
  return lines.join('\n');
}
