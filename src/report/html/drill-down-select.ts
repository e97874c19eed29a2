import type { TraceLine } from './report-input.js';

/** Why a run was traced, most telling first: the worst spiral, then harm, then failure, then escalation. */
const REASON_PRIORITY = ['worst_tool_calls', 'harmful', 'failure', 'escalated'] as const;

function priority(trace: TraceLine): number {
  const ranks = trace.reasons
    .map((reason) => REASON_PRIORITY.indexOf(reason as (typeof REASON_PRIORITY)[number]))
    .filter((rank) => rank >= 0);
  return ranks.length === 0 ? REASON_PRIORITY.length : Math.min(...ranks);
}

/**
 * A cell's traces in the order worth reading: the worst run by tool calls, a harmful
 * run, a failure, an escalation, then the second of each, and so on.
 */
function cellOrder(traces: readonly TraceLine[]): TraceLine[] {
  const queues: TraceLine[][] = Array.from({ length: REASON_PRIORITY.length + 1 }, () => []);
  for (const trace of traces) queues[priority(trace)]!.push(trace);
  // The worst runs worst first; the others keep file (seed) order.
  queues[0]!.sort((a, b) => b.record.tool_calls - a.record.tool_calls || a.seed - b.seed);
  const ordered: TraceLine[] = [];
  for (let round = 0; ordered.length < traces.length; round++) {
    for (const queue of queues) if (round < queue.length) ordered.push(queue[round]!);
  }
  return ordered;
}

/**
 * Every traced run in the order the report offers them: round by round over the
 * (scenario, arm) cells, so with a cap each cell shows its worst run before any cell
 * shows its second. Deterministic: it depends only on the file's contents.
 *
 * @example
 * prioritiseTraces(traces).slice(0, 40) // the runs that get a timeline
 */
export function prioritiseTraces(traces: readonly TraceLine[]): TraceLine[] {
  const cells = new Map<string, TraceLine[]>();
  for (const trace of traces) {
    const key = JSON.stringify([trace.scenario, trace.arm]);
    cells.set(key, [...(cells.get(key) ?? []), trace]);
  }
  const perCell = [...cells.values()].map(cellOrder);
  const ordered: TraceLine[] = [];
  for (let round = 0; ordered.length < traces.length; round++) {
    for (const cell of perCell) if (round < cell.length) ordered.push(cell[round]!);
  }
  return ordered;
}
