import Table from 'cli-table3';
import type { Comparison, CompareRow } from './compare.js';
import {
  armLabel,
  gateName,
  metricLines,
  metricRobustnessLine,
  rowChange,
  rowFindings,
  ruleLines,
  successLines,
  successRobustnessLines,
  verdictLine,
} from './compare-format.js';
import { tableFrame } from './terminal-table.js';
import { escapeControl } from './terminal-text.js';

export interface CompareTextOptions {
  /** ANSI colours for the header, border and verdict. @default false */
  readonly color?: boolean;
}

/** Where the two sides of a comparison came from, for the heading. */
export interface CompareSources {
  readonly a: string;
  readonly b: string;
}

const COLOURS: Readonly<Record<CompareRow['verdict'], readonly [string, string]>> = {
  regressed: ['\u001b[31m', '\u001b[39m'],
  mixed: ['\u001b[33m', '\u001b[39m'],
  improved: ['\u001b[32m', '\u001b[39m'],
  inconclusive: ['\u001b[2m', '\u001b[22m'],
  unchanged: ['', ''],
};

/** The verdict cell: the word, and whether the row fails the gate. */
function verdictCell(row: CompareRow): string {
  const word = row.verdict === 'unchanged' ? '' : row.verdict;
  return row.regression ? `${word}\nREGRESSION` : word;
}

// Names come from results files and paths from the command line: shown, never obeyed by the terminal.
const shown = (text: string) => escapeControl(text);

/** The comparison as one cli-table3 table, a row per matched cell. */
export function renderCompareTable(comparison: Comparison, options: CompareTextOptions = {}): string {
  const color = options.color === true;
  const table = new Table(
    tableFrame(
      [
        'arm',
        'scenario',
        'success A → B\nΔ [95% CI]\nFisher p',
        'across models\n(success)',
        'p95 tool calls A → B\nΔ [95% CI]',
        'median input tokens A → B\nΔ [95% CI]',
        'verdict',
      ],
      color,
    ),
  );
  for (const row of comparison.rows) {
    const [open, close] = color ? COLOURS[row.verdict] : ['', ''];
    table.push([
      shown(armLabel(row)),
      row.impossible ? `${shown(row.scenario)}\n(impossible: an\nescalation counts\nas success)` : shown(row.scenario),
      successLines(row.success).join('\n'),
      successRobustnessLines(row).join('\n'),
      [...metricLines(row.toolCalls.p95), ...metricRobustnessLine(row.robustness.toolCalls)].join('\n'),
      [...metricLines(row.inputTokens.median), ...metricRobustnessLine(row.robustness.inputTokens)].join('\n'),
      `${open}${verdictCell(row)}${close}`,
    ]);
  }
  return table.toString();
}

/** The comparison for a terminal: sources, the table, unmatched cells, the rule, the verdict, and the gate. */
export function renderCompareText(
  comparison: Comparison,
  sources: CompareSources,
  options: CompareTextOptions = {},
): string {
  const lines = [`A: ${shown(sources.a)}`, `B: ${shown(sources.b)}`, renderCompareTable(comparison, options)];
  const cells = (keys: Comparison['onlyInA']) =>
    shown(keys.map(({ scenario, arm }) => `${scenario} · ${arm}`).join(', '));
  if (comparison.onlyInA.length > 0) lines.push(`only in A (not compared): ${cells(comparison.onlyInA)}`);
  if (comparison.onlyInB.length > 0) lines.push(`only in B (not compared): ${cells(comparison.onlyInB)}`);
  lines.push(...ruleLines(comparison), '', verdictLine(comparison));
  for (const row of comparison.rows.filter((r) => r.verdict !== 'unchanged'))
    lines.push(`  ${row.verdict.padEnd(9)} ${shown(rowChange(row, comparison.options.successTolerance))}`);
  const regressed = comparison.rows.filter((row) => row.regression);
  if (regressed.length === 0) {
    lines.push(`${gateName(comparison)}: passed, no significant regression.`);
  } else {
    lines.push(
      `${gateName(comparison)}: ${regressed.length} ${regressed.length === 1 ? 'cell regressed' : 'cells regressed'}:`,
      ...regressed.map((row) => `  REGRESSION ${shown(rowFindings(row, (f) => f.gated && f.direction === 'worse'))}`),
    );
  }
  return lines.join('\n');
}
