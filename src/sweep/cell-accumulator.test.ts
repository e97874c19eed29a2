import { describe, expect, it } from 'vitest';
import { CellAccumulator } from './cell-accumulator.js';
import { packRun, PACKED_WIDTH } from './packed-metrics.js';
import type { RunRecord } from '../results/run-record-schema.js';

function run(seed: number, verdict: RunRecord['verdict'], toolCalls: number): Parameters<typeof packRun>[0] {
  return {
    seed,
    verdict,
    outcome: 'completed',
    tool_calls: toolCalls,
    tool_executions: toolCalls,
    model_calls: toolCalls + 1,
    input_tokens: 100 * toolCalls,
    output_tokens: 10 * toolCalls,
    virtual_ms: 1000 * toolCalls,
    duplicate_side_effects: verdict === 'harmful' ? 1 : 0,
    cost_usd: 0.000_1 * toolCalls + 0.000_000_7,
  };
}

function accumulate(runs: ReturnType<typeof run>[], impossible = false): CellAccumulator {
  const packed = new Float64Array(runs.length * PACKED_WIDTH);
  runs.forEach((r, row) => packRun(r, packed, row));
  const cell = new CellAccumulator('s', 'a', impossible);
  cell.addPacked(packed);
  return cell;
}

describe('CellAccumulator', () => {
  const runs = [
    run(1, 'success', 5),
    run(2, 'failure', 40),
    run(3, 'success', 40),
    run(4, 'escalated', 7),
    run(5, 'failure', 3),
    run(6, 'harmful', 12),
    run(7, 'failure', 9),
    run(8, 'failure', 41),
    run(9, 'success', 2),
  ];

  it('summarises counts, intervals and exact quantiles', () => {
    const summary = accumulate(runs).summary();
    expect(summary.runs).toBe(9);
    expect(summary.success).toMatchObject({ successes: 3, trials: 9, rate: 0.3333 });
    expect(summary.verdicts).toEqual({ success: 3, escalated: 1, failure: 4, harmful: 1 });
    // sorted calls: 2 3 5 7 9 12 40 40 41 → median 9; p95 at index 7.6 → 40 + 0.6 = 40.6
    expect(summary.tool_calls).toEqual({ median: 9, p95: 40.6, max: 41, mean: 17.67 });
    expect(summary.duplicate_side_effects).toBe(1);
    expect(summary.right_outcome.successes).toBe(3);
    expect(accumulate(runs, true).summary().right_outcome.successes).toBe(4);
  });

  it('sums the runs’ costs in whole millionths, the same in any order, and knows none when a record had none', () => {
    // 159 calls × $0.0001 + 9 × $0.0000007, each record rounded to the millionth: 0.0159 + 9e-6.
    expect(accumulate(runs).summary().cost_usd).toBe(0.015_909);
    expect(accumulate([...runs].reverse()).summary().cost_usd).toBe(0.015_909);
    const { cost_usd: _, ...older } = runs[0]!;
    expect(accumulate([older, ...runs.slice(1)]).summary()).not.toHaveProperty('cost_usd');
  });

  it('picks the worst runs by calls (ties to the lower seed) and the first of each bad verdict', () => {
    expect(accumulate(runs).traceCandidates(2)).toEqual([
      { seed: 2, reasons: ['worst_tool_calls', 'failure'] },
      { seed: 4, reasons: ['escalated'] },
      { seed: 5, reasons: ['failure'] },
      { seed: 6, reasons: ['harmful'] },
      { seed: 8, reasons: ['worst_tool_calls'] },
    ]);
  });

  it("tallies a dataset's tasks by the row each seed plays, seeds past 2^32 too, leaving out tasks no seed reached", () => {
    const tasks = ['t1', 't2', 't3'];
    // Plays row 2^32 mod 3 = 1; kept to 32 bits it would be seed 1, row 0.
    const far = 2 ** 32 + 1;
    const runs = [run(1, 'success', 1), run(4, 'failure', 1), run(5, 'success', 1), run(far, 'failure', 1)];
    const packed = new Float64Array(runs.length * PACKED_WIDTH);
    runs.forEach((r, row) => packRun(r, packed, row));
    const cell = new CellAccumulator('s', 'a', false, tasks);
    cell.addPacked(packed);
    expect(cell.summary().tasks).toEqual([
      { task: 't1', runs: 2, right: 1 },
      { task: 't2', runs: 2, right: 1 },
    ]);
    expect(accumulate(runs).summary().tasks).toBeUndefined();
  });
});
