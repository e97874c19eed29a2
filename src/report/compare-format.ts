import type { CompareRow, Comparison, Finding, MetricChange, SuccessChange } from './compare.js';

// Words for the numbers of a comparison, shared by the terminal table and the Markdown summary.

/** A rate as a percentage with one decimal. */
export const pct = (rate: number): string => `${(rate * 100).toFixed(1)}%`;

/** A count or token figure: thousands separators; one decimal below 100 (a p95 of 31.1 calls), none above. */
export const num = (x: number): string =>
  x.toLocaleString('en-US', { maximumFractionDigits: Math.abs(x) < 100 ? 1 : 0 });

const signed = (text: string, x: number): string => (x > 0 ? `+${text}` : x < 0 ? `-${text}` : text);
const percentOf = (fraction: number): string => `${Number((fraction * 100).toFixed(2))}`;
const signedNum = (x: number): string => signed(num(Math.abs(x)), x);
const signedPts = (x: number): string => signed((Math.abs(x) * 100).toFixed(1), x);

/** A p-value readable at a glance: three decimals, or scientific notation below 0.001. */
export function pValue(p: number): string {
  return p >= 0.001 ? `p = ${p.toFixed(3)}` : `p = ${p.toExponential(1)}`;
}

/** "+110%", or "from 0" when there is no base to be relative to. */
export function relative(change: MetricChange): string {
  if (change.relative === null) return change.b === 0 ? '0%' : 'from 0';
  return `${signed((Math.abs(change.relative) * 100).toFixed(0), change.relative)}%`;
}

/** Marks a change whose test is significant at 95%, whatever its size. */
const star = (significant: boolean): string => (significant ? ' *' : '');

/** The three lines of the success column: rates, difference with interval, p. */
export function successLines(s: SuccessChange): string[] {
  return [
    `${pct(s.rateA)} → ${pct(s.rateB)}`,
    `${signedPts(s.difference)} pts [${signedPts(s.low)}, ${signedPts(s.high)}]${star(s.significant)}`,
    pValue(s.p),
  ];
}

/** The two lines of a metric column: values, difference with interval and relative change. */
export function metricLines(m: MetricChange): string[] {
  return [
    `${num(m.a)} → ${num(m.b)}`,
    `${signedNum(m.difference)} [${signedNum(m.low)}, ${signedNum(m.high)}] ${relative(m)}${star(m.significant)}`,
  ];
}

/** "classify → none", or the arm's name when both sides use the same arm. */
export function armLabel(row: CompareRow): string {
  return row.armA === row.armB ? row.armA : `${row.armA} → ${row.armB}`;
}

/** One finding in words, e.g. "success 90.3% → 65.0% (-25.3 pts, p = 1.2e-13)". */
export function findingText(row: CompareRow, finding: Finding): string {
  switch (finding.metric) {
    case 'success':
      return `success ${pct(row.success.rateA)} → ${pct(row.success.rateB)} (${signedPts(row.success.difference)} pts, ${pValue(row.success.p)})`;
    case 'p95_tool_calls':
      return `p95 tool calls ${num(row.toolCalls.p95.a)} → ${num(row.toolCalls.p95.b)} (${relative(row.toolCalls.p95)})`;
    case 'median_input_tokens':
      return `median input tokens ${num(row.inputTokens.median.a)} → ${num(row.inputTokens.median.b)} (${relative(row.inputTokens.median)})`;
  }
}

/** "fetch-transform-write · classify → none: success …; p95 tool calls …" for the findings in one direction. */
export function rowFindings(row: CompareRow, direction: Finding['direction']): string {
  const texts = row.findings.filter((f) => f.direction === direction).map((f) => findingText(row, f));
  return `${row.scenario} · ${armLabel(row)}: ${texts.join('; ')}`;
}

/** What counts as a regression, with the thresholds in force, and how the intervals were made. */
export function ruleLines(comparison: Comparison): [string, string] {
  const { thresholds, resamples, seed } = comparison.options;
  return [
    `regression = significant at 95% (Fisher p < 0.05; bootstrap interval excludes 0) and worse than: ` +
      `success -${percentOf(thresholds.successDrop)} pts, p95 tool calls +${percentOf(thresholds.p95CallsRise)}%, median input tokens +${percentOf(thresholds.tokensRise)}%`,
    `* = significant at 95% · intervals: Newcombe (success), percentile bootstrap with ${resamples} resamples, seed ${seed} (calls, tokens)`,
  ];
}
