import type { StoredSummary } from '../results/summary-schema.js';
import { escapeCell } from './compare-markdown.js';
import { costMethod, formatDollars } from './prices.js';
import { headline, type HeadlineRow, type HeadlineScenario } from './html/headline-data.js';
import { medP95Max, pointsWithInterval, isSignificant, rateWithInterval, whole, words } from './html/format.js';
import { answerCells, answerHead } from './answer-table.js';
import { effectOf } from './recommendation.js';
import { armSentences, pickSentence, robustnessNote } from './recommendation-text.js';
import { mixSentences } from './scenario-mix-text.js';
import { assessed, interval, labelText, signedEffect } from './robustness-format.js';
import type { RunConclusions } from './run-conclusions.js';

export interface MarkdownSummaryOptions {
  /** The sweep's name, shown in the heading. @default no name */
  readonly name?: string;
  /** The sweep's date (from meta.json), shown under the heading. @default not shown */
  readonly date?: string;
  /** Differences between arms with their robustness, and the answer to end with (read from runs.jsonl). @default neither */
  readonly conclusions?: RunConclusions;
}

/** The across-models cell of one arm: its robustness label, and a new model's interval when an ensemble can say. */
function acrossCell(conclusions: RunConclusions | undefined, scenario: string, arm: string): string[] {
  if (conclusions === undefined) return [];
  if (arm === conclusions.baseline) return ['—'];
  const effect = effectOf(conclusions.effects, scenario, arm);
  if (effect === undefined) return ['—'];
  const { success } = effect;
  return [
    escapeCell(
      assessed(success)
        ? `${labelText(success)}\nnew model ${interval(success.predictionLow ?? success.low, success.predictionHigh ?? success.high, 'points')}`
        : `${labelText(success)}\npaired by seed: ${signedEffect(success.pooled, 'points')} ${interval(success.low, success.high, 'points')}`,
    ),
  ];
}

function rowCells(
  row: HeadlineRow,
  scenario: HeadlineScenario,
  best: number,
  conclusions: RunConclusions | undefined,
): string[] {
  const rate = rateWithInterval(row.rate);
  const delta =
    row.vsBaseline === null ? '—' : `${pointsWithInterval(row.vsBaseline)}${isSignificant(row.vsBaseline) ? ' *' : ''}`;
  return [
    escapeCell(row.arm),
    whole(row.runs),
    row.rate.rate === best && scenario.rows.length > 1 ? `**${rate}**` : rate,
    delta,
    ...acrossCell(conclusions, scenario.id, row.arm),
    medP95Max(row.toolCalls),
    `${whole(row.inputTokens.median)} / ${whole(row.inputTokens.p95)}`,
    row.costPerRun === undefined ? 'n/a' : formatDollars(row.costPerRun),
    row.costPerSuccess === undefined ? 'n/a' : formatDollars(row.costPerSuccess),
    escapeCell(row.outcomes.map(([kind, n]) => `${words(kind)} ${whole(n)}`).join(', ')),
    escapeCell(
      row.verdicts
        .filter(([kind]) => kind !== 'success')
        .map(([kind, n]) => `${kind} ${whole(n)}`)
        .join(', ') || '—',
    ),
    whole(row.duplicateSideEffects),
  ];
}

/**
 * The report's headline as GitHub Markdown, for `$GITHUB_STEP_SUMMARY` and PR comments:
 * per scenario, a table with a row per arm. Every name from the results is escaped for a
 * table cell (pipes, and HTML, which GitHub would otherwise render).
 *
 * @example
 * writeFileSync(process.env.GITHUB_STEP_SUMMARY!, renderMarkdownSummary(summary, { name: 'nightly' }));
 */
export function renderMarkdownSummary(summary: StoredSummary, options: MarkdownSummaryOptions = {}): string {
  const data = headline(summary);
  const { scenarios, price } = data;
  const runs = summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  const lines = [
    `## spiralbench report${options.name === undefined ? '' : `: ${escapeCell(options.name)}`}`,
    '',
    `${whole(runs)} runs · model ${escapeCell(summary.model)} · sweep seed ${summary.sweep_seed} · run seeds ${summary.seeds.base}..${summary.seeds.base + summary.seeds.count - 1}${options.date === undefined ? '' : ` · ${escapeCell(options.date)}`}`,
    '',
    // A live sweep says so before any number: its runs met real sockets and real time.
    ...(summary.live === undefined
      ? []
      : [`**${escapeCell(summary.live.note)}** (tool timeout ${summary.live.timeout_ms} ms)`, '']),
  ];
  for (const scenario of scenarios) {
    const best = Math.max(...scenario.rows.map((row) => row.rate.rate));
    lines.push(
      `### ${escapeCell(scenario.id)}${scenario.impossible ? ' (impossible: the right outcome is to escalate)' : ''}`,
      '',
    );
    const head = [
      'arm',
      'runs',
      scenario.impossible ? 'escalated (right outcome) [95% CI]' : 'success [95% CI]',
      `Δ vs ${escapeCell(scenario.baseline)} [95% CI]`,
      ...(options.conclusions === undefined ? [] : ['across models']),
      'tool calls med / p95 / max',
      'input tokens med / p95',
      'est. cost / run',
      'est. cost / success',
      'outcomes',
      'other verdicts',
      'duplicate writes',
    ];
    const text = new Set(['arm', 'across models', 'outcomes', 'other verdicts']);
    lines.push(`| ${head.join(' | ')} |`, `|${head.map((cell) => (text.has(cell) ? ' --- ' : ' ---: ')).join('|')}|`);
    for (const row of scenario.rows)
      lines.push(`| ${rowCells(row, scenario, best, options.conclusions).join(' | ')} |`);
    lines.push('');
  }
  const notes = ['* = the 95% interval of the difference leaves out 0 (Newcombe). Rates carry 95% Wilson intervals.'];
  if (price !== undefined) {
    notes.push(`Costs are estimates, ${escapeCell(costMethod(price, data.costsRecorded))}.`);
  } else {
    notes.push(`No price is known for model ${escapeCell(summary.model)}: costs are n/a.`);
  }
  if (options.conclusions !== undefined) notes.push(escapeCell(robustnessNote(options.conclusions.answer)));
  lines.push(...notes.map((note) => `<sub>${note}</sub><br>`), '');
  if (options.conclusions !== undefined && options.conclusions.answer.arms.length > 1)
    lines.push(...answerMarkdown(options.conclusions));
  return lines.join('\n');
}

/** The answer across scenarios: the arms in leaderboard order, the recommendation, and a sentence per arm. */
function answerMarkdown({ answer }: RunConclusions): string[] {
  const head = answerHead(answer).map((cell) => escapeCell(cell.replace('\n', ' ')));
  const lines = [
    `### The answer${answer.scenarios.length > 1 ? ` across ${answer.scenarios.length} scenarios` : ''}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 1 || i === 4 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...answer.arms.map((arm) => `| ${answerCells(arm).map(escapeCell).join(' | ')} |`),
    '',
    escapeCell(pickSentence(answer)),
    '',
    ...mixSentences(answer).flatMap((line) => [escapeCell(line), '']),
    ...armSentences(answer).map(({ arm, text }) => `- **${escapeCell(arm)}**: ${escapeCell(text)}`),
    '',
  ];
  return lines;
}
