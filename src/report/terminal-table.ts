import Table from 'cli-table3';
import type { CellSummary } from '../stats/cell-summary.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const int = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');

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

/** One table per scenario, a row per arm, for the terminal. */
export function renderCellTables(cells: readonly CellSummary[], options: { readonly color?: boolean } = {}): string {
  const byScenario = new Map<string, CellSummary[]>();
  for (const cell of cells) byScenario.set(cell.scenario, [...(byScenario.get(cell.scenario) ?? []), cell]);
  const out: string[] = [];
  for (const [scenario, rows] of byScenario) {
    const table = new Table({
      head: ['arm', 'runs', 'success [95% CI]', 'tool calls\nmed / p95 / max', 'model calls\nmed', 'input tokens\nmed / p95', 'outcomes', 'other verdicts'],
      style: { head: options.color === false ? [] : ['cyan'], border: options.color === false ? [] : ['grey'] },
    });
    for (const cell of rows) {
      table.push([
        cell.arm,
        cell.runs,
        `${pct(cell.success.rate)} [${pct(cell.success.low)}, ${pct(cell.success.high)}]`,
        `${int(cell.tool_calls.median)} / ${int(cell.tool_calls.p95)} / ${cell.tool_calls.max}`,
        int(cell.model_calls.median),
        `${thousands(cell.input_tokens.median)} / ${thousands(cell.input_tokens.p95)}`,
        outcomes(cell),
        verdicts(cell),
      ]);
    }
    out.push(`${scenario}\n${table.toString()}`);
  }
  return out.join('\n\n');
}
