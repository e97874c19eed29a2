import type { BehaviourStatistics, NextAction } from './behaviour-statistics.js';
import { LONG_RUN_CALLS, NEXT_ACTIONS } from './behaviour-statistics.js';
import { RESULT_KINDS } from './result-kind.js';

const ACTION_HEADINGS: Readonly<Record<NextAction, string>> = {
  identical: 'identical call',
  same_tool_other_args: 'same tool, other args',
  other_tool: 'other tool',
  stop_or_help: 'stop / help',
};

const count = (n: number): string => n.toLocaleString('en-US');
/** A share as a percentage with one decimal; a dash when there was nothing to share. */
export const percent = (share: number | null): string => (share === null ? '—' : `${(100 * share).toFixed(1)}%`);

function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * One group's statistics as a terminal table: the next action after each kind of result,
 * then the identical-consecutive share, the long-run repeat share and the hint's effect.
 * Plain text, no colour: it reads the same in a log and under NO_COLOR.
 */
export function renderBehaviourTable(title: string, statistics: BehaviourStatistics): string {
  const { hint_effect: hint } = statistics;
  const lines = [
    `${title} · ${count(statistics.runs)} runs · ${count(statistics.calls)} tool calls`,
    ...columns([
      ['after …', 'n', ...NEXT_ACTIONS.map((action) => ACTION_HEADINGS[action])],
      ...RESULT_KINDS.map((kind) => {
        const row = statistics.after[kind];
        return [`${kind}`, count(row.n), ...NEXT_ACTIONS.map((action) => percent(row[action]))];
      }),
    ]).map((line) => `  ${line}`),
    `  identical consecutive calls: ${percent(statistics.identical_consecutive)} of calls`,
    `  runs over ${LONG_RUN_CALLS} calls: ${count(statistics.long_runs.n)}${statistics.long_runs.n === 0 ? '' : `, ${percent(statistics.long_runs.repeat_share)} with an immediate repeat pair (a call equal to one of the 2 before it)`}`,
    `  hint effect on identical retries after a permanent error: ${percent(hint.with_advice.identical)} with no-retry advice (n ${count(hint.with_advice.n)}), ${percent(hint.without_advice.identical)} without (n ${count(hint.without_advice.n)})${hint.cut === null ? '' : `: cut ${percent(hint.cut)}`}`,
  ];
  return lines.join('\n');
}
