import type { Robustness } from '../stats/robustness.js';
import type { CompareRow, Comparison, Finding, GatedMetric, MetricChange, SuccessChange, Verdict } from './compare.js';
import { acrossModelsLines, assessed, labelText } from './robustness-format.js';

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
    // With an ensemble, the gate's significance is the pooled paired interval's (on the line
    // below); the star here marks only what this line's own unpaired interval says.
    `${signedPts(s.difference)} pts [${signedPts(s.low)}, ${signedPts(s.high)}]${star(s.basis === 'ensemble' ? s.low > 0 || s.high < 0 : s.significant)}`,
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

/** The figure's name in words. */
export const METRIC_WORDS: Readonly<Record<GatedMetric, string>> = {
  success: 'success',
  p95_tool_calls: 'p95 tool calls',
  median_input_tokens: 'median input tokens',
};

/** "; across 30 models: robust" when the ensemble can say, else nothing. */
function acrossModels(r: Robustness | null, what = ''): string {
  return r === null || !assessed(r) ? '' : `; across ${r.members} models${what}: ${labelText(r)}`;
}

/** One finding in words, e.g. "success 90.3% → 65.0% (-25.3 pts, p = 1.2e-13; robust across 30 models)". */
export function findingText(row: CompareRow, finding: Finding): string {
  switch (finding.metric) {
    case 'success':
      return `success ${pct(row.success.rateA)} → ${pct(row.success.rateB)} (${signedPts(row.success.difference)} pts, ${pValue(row.success.p)}${acrossModels(row.robustness.success)})`;
    case 'p95_tool_calls':
      return `p95 tool calls ${num(row.toolCalls.p95.a)} → ${num(row.toolCalls.p95.b)} (${relative(row.toolCalls.p95)}${acrossModels(row.robustness.toolCalls, ' (mean per run)')})`;
    case 'median_input_tokens':
      return `median input tokens ${num(row.inputTokens.median.a)} → ${num(row.inputTokens.median.b)} (${relative(row.inputTokens.median)}${acrossModels(row.robustness.inputTokens, ' (mean per run)')})`;
  }
}

/** "fetch-transform-write · classify → none: success …; p95 tool calls …" for the chosen findings. */
export function rowFindings(row: CompareRow, keep: (finding: Finding) => boolean): string {
  const texts = row.findings.filter(keep).map((f) => findingText(row, f));
  return `${row.scenario} · ${armLabel(row)}: ${texts.join('; ')}`;
}

/** A changed row in words: what got better, what got worse; an inconclusive one, what its interval allows. */
export function rowChange(row: CompareRow, tolerance?: number): string {
  if (row.verdict === 'inconclusive') return `${row.scenario} · ${armLabel(row)}: ${inconclusiveText(row, tolerance)}`;
  if (row.verdict !== 'mixed') return rowFindings(row, () => true);
  const side = (direction: Finding['direction']) =>
    row.findings
      .filter((f) => f.direction === direction)
      .map((f) => findingText(row, f))
      .join('; ');
  return `${row.scenario} · ${armLabel(row)}: better ${side('better')}; worse ${side('worse')}`;
}

/** The success column's lines when the ensemble can say more than one model's seeds: how the change holds across members. */
export function successRobustnessLines(row: CompareRow): string[] {
  return row.robustness.success === null ? [] : acrossModelsLines(row.robustness.success, 'points');
}

/** A short note under a per-run metric when the ensemble can judge its direction (on the mean per run). */
export function metricRobustnessLine(r: Robustness | null): string[] {
  return r === null || !assessed(r) ? [] : [`models (mean): ${labelText(r)}`];
}

/**
 * What an inconclusive row's success interval allows, e.g. "the interval [-25.1, +1.2]
 * allows a drop of up to 25.1 points (tolerance 5); run more seeds".
 */
export function inconclusiveText(row: CompareRow, tolerance?: number): string {
  const { low, high } = row.success;
  const drop = -low;
  const move =
    drop >= high
      ? `a drop of up to ${(drop * 100).toFixed(1)} points`
      : `a rise of up to ${(high * 100).toFixed(1)} points`;
  const within = tolerance === undefined ? '' : ` (tolerance ${Number((tolerance * 100).toFixed(2))})`;
  return `the interval [${signedPts(low)}, ${signedPts(high)}] allows ${move}${within}; run more seeds`;
}

/** The overall verdict, with a count of each kind of row. */
export function verdictLine(comparison: Comparison): string {
  const count = (verdict: Verdict) => comparison.rows.filter((row) => row.verdict === verdict).length;
  const parts = (['improved', 'mixed', 'regressed', 'inconclusive', 'unchanged'] as const)
    .filter((verdict) => count(verdict) > 0)
    .map((verdict) => `${count(verdict)} ${verdict}`);
  return `Verdict: ${comparison.verdict} (${parts.join(', ')}; ${comparison.rows.length === 1 ? '1 cell' : `${comparison.rows.length} cells`})`;
}

/** "Gate (success, p95 tool calls)". */
export function gateName(comparison: Comparison): string {
  return `Gate (${comparison.options.gate.map((metric) => METRIC_WORDS[metric]).join(', ')})`;
}

/** What counts as a regression, with the thresholds in force, and how the intervals were made. */
export function ruleLines(comparison: Comparison): string[] {
  const { thresholds, resamples, seed, gate } = comparison.options;
  const ensemble = comparison.rows.some((row) => row.success.basis === 'ensemble');
  return [
    `regression = significant at 95% (${ensemble ? 'success: the pooled interval across models excludes 0' : 'Fisher p < 0.05'}; bootstrap interval excludes 0) and worse than: ` +
      `success -${percentOf(thresholds.successDrop)} pts, p95 tool calls +${percentOf(thresholds.p95CallsRise)}%, median input tokens +${percentOf(thresholds.tokensRise)}%; the gate fails only on ${gate.map((metric) => METRIC_WORDS[metric]).join(', ')} (--gate)`,
    `* = significant at 95% · intervals: Newcombe (success), percentile bootstrap with ${resamples} resamples, seed ${seed} (calls, tokens)`,
    ensemble
      ? 'across models: random-effects pooling of per-model paired differences; robust = the sign holds for a new model (docs/statistics.md)'
      : comparison.oneModel
        ? 'across models: not assessed, the two sweeps ran different persona ensembles (or one ran none)'
        : 'across models: not assessed, the sweeps ran one model (run --ensemble to assess it; docs/statistics.md)',
  ];
}
