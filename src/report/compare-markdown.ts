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
import type { CompareSources } from './compare-table.js';

/** The verdict cell: the word, and in bold when the row fails the gate. */
function verdictCell(row: CompareRow): string {
  const word = row.verdict === 'unchanged' ? '' : row.verdict;
  return row.regression ? `${word}<br>**REGRESSION**` : word;
}

/** Text safe inside a GitHub Markdown table cell: pipes escaped, HTML neutralised, line breaks as `<br>`. */
export function escapeCell(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('|', '\\|')
    .replace(/\r?\n/g, '<br>');
}

/** An inline code span that survives backticks in its text. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ` ${text} ` : text}${fence}`;
}

/**
 * The comparison as a GitHub-flavoured Markdown summary: a heading, one table, and a line
 * listing regressions or saying there are none. Made for `$GITHUB_STEP_SUMMARY` or a PR comment.
 */
export function renderCompareMarkdown(comparison: Comparison, sources: CompareSources): string {
  const lines = ['## spiralbench compare', '', `A: ${code(sources.a)} → B: ${code(sources.b)}`, ''];
  const head = [
    'arm',
    'scenario',
    'success A → B · Δ [95% CI] · p',
    'across models (success)',
    'p95 tool calls A → B · Δ [95% CI]',
    'median input tokens A → B · Δ [95% CI]',
    'verdict',
  ];
  lines.push(
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < 2 ? ' --- ' : i === head.length - 1 ? ' :---: ' : ' ---: ')).join('|')}|`,
  );
  for (const row of comparison.rows) {
    const cells = [
      escapeCell(armLabel(row)),
      escapeCell(row.impossible ? `${row.scenario}\n(impossible: escalation counts as success)` : row.scenario),
      escapeCell(successLines(row.success).join('\n')),
      escapeCell(successRobustnessLines(row).join('\n')),
      escapeCell([...metricLines(row.toolCalls.p95), ...metricRobustnessLine(row.robustness.toolCalls)].join('\n')),
      escapeCell(
        [...metricLines(row.inputTokens.median), ...metricRobustnessLine(row.robustness.inputTokens)].join('\n'),
      ),
      verdictCell(row),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push('');
  if (comparison.rows.length === 0) lines.push('_No (scenario, arm) cell is in both sweeps._', '');
  const unmatched = [
    ...comparison.onlyInA.map(({ scenario, arm }) => `A: ${scenario} · ${arm}`),
    ...comparison.onlyInB.map(({ scenario, arm }) => `B: ${scenario} · ${arm}`),
  ];
  if (unmatched.length > 0) lines.push(`Not compared (in one sweep only): ${escapeCell(unmatched.join(', '))}`, '');
  lines.push(`**${escapeCell(verdictLine(comparison))}**`, '');
  const changed = comparison.rows.filter((row) => row.verdict !== 'unchanged');
  if (changed.length > 0)
    lines.push(
      ...changed.map((row) => `- ${row.verdict}: ${escapeCell(rowChange(row, comparison.options.successTolerance))}`),
      '',
    );
  const regressed = comparison.rows.filter((row) => row.regression);
  if (regressed.length === 0) {
    lines.push(`${escapeCell(gateName(comparison))}: passed, no significant regression.`);
  } else {
    lines.push(
      `${escapeCell(gateName(comparison))}: **REGRESSION** in ${regressed.length} ${regressed.length === 1 ? 'cell' : 'cells'}:`,
      '',
      ...regressed.map((row) => `- ${escapeCell(rowFindings(row, (f) => f.gated && f.direction === 'worse'))}`),
    );
  }
  lines.push('', ...ruleLines(comparison).map((line) => `<sub>${escapeCell(line)}</sub><br>`), '');
  return lines.join('\n');
}
