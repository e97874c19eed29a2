import Table from 'cli-table3';
import { MIN_MEMBERS } from '../stats/robustness.js';
import { num, pct } from './compare-format.js';
import { formatDollars } from './prices.js';
import type { Answer, ArmAnswer } from './recommendation.js';
import { armSentences, pickSentence, robustnessNote } from './recommendation-text.js';
import { mixSentences } from './scenario-mix-text.js';
import { assessed, interval, labelText, signedEffect } from './robustness-format.js';
import { tableFrame } from './terminal-table.js';
import { escapeControl } from './terminal-text.js';

// Names come from results files: shown, never obeyed by the terminal.
const shown = (text: string) => escapeControl(text);

/** The cells of one arm's row: rank, arm, pooled figures, its gain over the baseline and how it holds. */
export function answerCells(arm: ArmAnswer): string[] {
  const { rate, low, high } = arm.rightOutcome;
  const vs = arm.vsBaseline?.success;
  return [
    String(arm.rank),
    arm.arm,
    `${pct(rate)} [${pct(low)}, ${pct(high)}]`,
    vs === undefined ? 'baseline' : `${signedEffect(vs.pooled, 'points')}\n${interval(vs.low, vs.high, 'points')}`,
    vs === undefined
      ? ''
      : assessed(vs)
        ? `${labelText(vs)}\nnew model ${interval(vs.predictionLow ?? vs.low, vs.predictionHigh ?? vs.high, 'points')}`
        : labelText(vs),
    num(arm.p95ToolCalls),
    Math.round(arm.p95InputTokens).toLocaleString('en-US'),
    harmfulCell(arm),
    arm.costPerSuccess === undefined ? 'n/a' : formatDollars(arm.costPerSuccess),
  ];
}

/**
 * Harmful runs, and against the baseline the change in harmful rate with how it holds
 * across models (short: the label without its interval), where an ensemble lets it be assessed.
 */
function harmfulCell(arm: ArmAnswer): string {
  const count = `${arm.harmful} (${pct(arm.harmful / Math.max(1, arm.runs))})`;
  const vs = arm.vsBaseline?.harmful;
  if (vs === undefined || !assessed(vs)) return count;
  return `${count}\n${signedEffect(vs.pooled, 'points')}, ${labelText(vs)}`;
}

/** The headings of the answer's table. */
export function answerHead(answer: Answer): string[] {
  return [
    '#',
    'arm',
    'success [95% CI]',
    `Δ vs ${answer.baseline}\n[95% CI]`,
    'across models',
    'tool calls\np95',
    'input tokens\np95',
    'harmful\nruns',
    'est. cost\nper success',
  ];
}

/**
 * The sweep's answer for a terminal, to end the run's output: every arm over all its
 * scenarios in leaderboard order, its gain over the baseline with how it holds across
 * models, then the recommendation and a sentence per arm, generated from the numbers.
 */
export function renderAnswer(answer: Answer, options: { readonly color?: boolean } = {}): string {
  const table = new Table(tableFrame(answerHead(answer), options.color === true));
  for (const arm of answer.arms) table.push(answerCells(arm).map((cell, i) => (i === 1 ? shown(cell) : cell)));
  // A sweep that cannot speak for other models says so in its first words.
  const scope =
    answer.members < MIN_MEMBERS ? (answer.ensemble === undefined ? ', on one model' : ', on too few models') : '';
  const heading =
    answer.scenarios.length === 1
      ? `The answer on ${shown(answer.scenarios[0] ?? '')}${scope} (against ${shown(answer.baseline)}):`
      : `The answer across ${answer.scenarios.length} scenarios${scope} (each counts once; against ${shown(answer.baseline)}):`;
  const lines = [
    heading,
    table.toString(),
    shown(pickSentence(answer)),
    ...mixSentences(answer).map(shown),
    '',
    'What each arm buys, where it costs, how sure we are:',
    ...armSentences(answer).map(({ arm, text }) => `  ${shown(arm)}: ${shown(text)}`),
    '',
    robustnessNote(answer),
  ];
  return lines.join('\n');
}
