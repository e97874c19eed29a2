import Table from 'cli-table3';
import type { CellSummary } from '../stats/cell-summary.js';
import type { Proportion } from '../stats/wilson.js';
import { effectOf, type ScenarioEffect } from './recommendation.js';
import { datasetTasksOf } from './dataset-tasks.js';
import { assessed, interval, labelText, signedEffect } from './robustness-format.js';
import { escapeControl } from './terminal-text.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const int = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');
const rate = (p: Proportion) => `${pct(p.rate)} [${pct(p.low)}, ${pct(p.high)}]`;
// Names come from summary files too (merge reads shards'): shown, never obeyed by the terminal.
const name = (text: string) => escapeControl(text);

/** pass^k per arm on one line each: how reliably an arm succeeds k times in a row. */
export function renderPassHatK(
  rows: ReadonlyArray<{ readonly arm: string; readonly k: Readonly<Record<string, number>> }>,
): string {
  const width = Math.max(...rows.map((row) => name(row.arm).length));
  const lines = rows.map(
    (row) =>
      `  ${name(row.arm).padEnd(width)}  ${Object.entries(row.k)
        .map(([k, value]) => `k=${k} ${value.toFixed(3)}`)
        .join('  ')}`,
  );
  return `pass^k (each scenario a task, a dataset's rows a task each; τ-bench):\n${lines.join('\n')}`;
}

/**
 * A dataset scenario's tasks, per arm on one line: on how many tasks every run had the
 * right outcome and on how many none did, and the hardest tasks with their counts.
 *
 * @example
 * // Tasks of user-exports (60 tasks, 2 runs each a cell):
 * //   none     right every run on 28 of 60, never on 12; hardest: u_2035 0/2, u_2042 0/2, u_2049 0/2
 */
export function renderDatasetTasks(cells: readonly CellSummary[], hardest = 3): string {
  return datasetTasksOf(cells)
    .map(({ scenario, arms }) => {
      const width = Math.max(...arms.map((entry) => name(entry.arm).length));
      const runs = [...new Set(arms.flatMap((entry) => entry.tasks.map((task) => task.runs)))];
      const each =
        runs.length === 1
          ? `${runs[0]} runs each a cell`
          : `${Math.min(...runs)}–${Math.max(...runs)} runs each a cell`;
      const lines = arms.map(({ arm, tasks }) => {
        const all = tasks.filter((task) => task.right === task.runs).length;
        const none = tasks.filter((task) => task.right === 0).length;
        // This arm's hardest: fewest right outcomes for its runs, then row order (a stable sort).
        const worst = [...tasks]
          .sort((a, b) => a.right / a.runs - b.right / b.runs)
          .slice(0, hardest)
          .map((task) => `${name(task.task)} ${task.right}/${task.runs}`);
        return `  ${name(arm).padEnd(width)}  right every run on ${all} of ${tasks.length}, never on ${none}; hardest: ${worst.join(', ')}`;
      });
      return `Tasks of ${name(scenario)} (${arms[0]?.tasks.length ?? 0} tasks, ${each}):\n${lines.join('\n')}`;
    })
    .join('\n');
}

function outcomes(cell: CellSummary): string {
  return Object.entries(cell.outcomes)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind} ${count}`)
    .join('\n');
}

function verdicts(cell: CellSummary): string {
  return Object.entries(cell.verdicts)
    .filter(([kind, count]) => count > 0 && kind !== 'success')
    .map(([kind, count]) => `${kind} ${count}`)
    .join('\n');
}

const CYAN = '\u001b[36m';
const DEFAULT_FOREGROUND = '\u001b[39m';

/**
 * A cli-table3 table's headings and style: headings in cyan, or plain. The colour is
 * written here rather than left to cli-table3's `style`, whose colour library makes its
 * own guess about the terminal (it turns colour off under CI, say) and would overrule
 * the one decision the CLI makes (terminal-capabilities.ts). Each line of a heading is
 * coloured on its own, since a table cell is laid out line by line.
 */
export function tableFrame(
  head: readonly string[],
  color: boolean,
): { head: string[]; style: { head: string[]; border: string[] } } {
  const paint = (text: string) =>
    text
      .split('\n')
      .map((line) => `${CYAN}${line}${DEFAULT_FOREGROUND}`)
      .join('\n');
  return { head: color ? head.map(paint) : [...head], style: { head: [], border: [] } };
}

export interface TableOptions {
  /** ANSI colours for headings and borders; the caller decides (a terminal, NO_COLOR). @default false */
  readonly color?: boolean;
  /** Scenarios whose right outcome is an escalation: their headline is that rate, not success. */
  readonly impossible?: ReadonlySet<string>;
  /** Each arm's difference from the baseline with its robustness (see `scenarioEffects`): adds a column. @default none */
  readonly effects?: ReadonlyMap<string, ScenarioEffect>;
  /** The arm the effects are measured against. @default 'none' */
  readonly baseline?: string;
}

/** "+12.3 pts [+8.0, +16.1]\nrobust" for one arm of one scenario, or "baseline". */
function effectCell(options: TableOptions, scenario: string, arm: string): string {
  if (options.effects === undefined) return '';
  if (arm === (options.baseline ?? 'none')) return 'baseline';
  const effect = effectOf(options.effects, scenario, arm);
  if (effect === undefined) return '';
  const { success } = effect;
  const label = assessed(success)
    ? `${labelText(success)}\nnew model ${interval(success.predictionLow ?? success.low, success.predictionHigh ?? success.high, 'points')}`
    : labelText(success);
  return `${signedEffect(success.pooled, 'points')} ${interval(success.low, success.high, 'points')}\n${label}`;
}

/** One table per scenario, a row per arm, for the terminal. */
export function renderCellTables(cells: readonly CellSummary[], options: TableOptions = {}): string {
  const byScenario = new Map<string, CellSummary[]>();
  for (const cell of cells) byScenario.set(cell.scenario, [...(byScenario.get(cell.scenario) ?? []), cell]);
  const out: string[] = [];
  for (const [scenario, rows] of byScenario) {
    const impossible = options.impossible?.has(scenario) === true;
    const table = new Table(
      tableFrame(
        [
          'arm',
          'runs',
          impossible ? 'right outcome:\nescalated [95% CI]' : 'success [95% CI]',
          'tool calls\nmed / p95 / max',
          'model calls\nmed',
          'input tokens\nmed / p95',
          ...(options.effects === undefined
            ? []
            : [`Δ vs ${name(options.baseline ?? 'none')} [95% CI]\nacross models`]),
          'outcomes',
          'other verdicts',
        ],
        options.color === true,
      ),
    );
    for (const cell of rows) {
      table.push([
        name(cell.arm),
        cell.runs,
        rate(impossible ? cell.right_outcome : cell.success),
        `${int(cell.tool_calls.median)} / ${int(cell.tool_calls.p95)} / ${cell.tool_calls.max}`,
        int(cell.model_calls.median),
        `${thousands(cell.input_tokens.median)} / ${thousands(cell.input_tokens.p95)}`,
        ...(options.effects === undefined ? [] : [effectCell(options, cell.scenario, cell.arm)]),
        outcomes(cell),
        verdicts(cell),
      ]);
    }
    out.push(
      `${name(scenario)}${impossible ? ' (impossible: the right outcome is to escalate)' : ''}\n${table.toString()}`,
    );
  }
  return out.join('\n\n');
}

/**
 * Every scenario against every arm in one table: the headline rate with its interval,
 * and median / p95 tool calls, so an arm such as `all` reads beside `article` and `none`.
 */
export function renderScenarioMatrix(cells: readonly CellSummary[], options: TableOptions = {}): string {
  const arms = [...new Set(cells.map((cell) => cell.arm))];
  const scenarios = [...new Set(cells.map((cell) => cell.scenario))];
  const byKey = new Map(cells.map((cell) => [`${cell.scenario}\0${cell.arm}`, cell]));
  const table = new Table(
    tableFrame(
      ['scenario', ...arms.map((arm) => `${name(arm)}\nrate [95% CI]\ncalls med / p95`)],
      options.color === true,
    ),
  );
  for (const scenario of scenarios) {
    const impossible = options.impossible?.has(scenario) === true;
    table.push([
      impossible ? `${name(scenario)}\n(escalation is right)` : name(scenario),
      ...arms.map((arm) => {
        const cell = byKey.get(`${scenario}\0${arm}`);
        if (cell === undefined) return '';
        // With an ensemble, each arm's difference from the baseline says how it holds across the models.
        const effect = options.effects === undefined ? undefined : effectOf(options.effects, scenario, arm);
        const label = effect !== undefined && assessed(effect.success) ? `\n${labelText(effect.success)}` : '';
        return `${rate(impossible ? cell.right_outcome : cell.success)}\n${int(cell.tool_calls.median)} / ${int(cell.tool_calls.p95)}${label}`;
      }),
    ]);
  }
  return `all scenarios (success, or escalation where the task is impossible):\n${table.toString()}`;
}
