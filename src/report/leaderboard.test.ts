import { describe, expect, it } from 'vitest';
import type { CellSummary } from '../stats/cell-summary.js';
import { leaderboard, renderLeaderboard } from './leaderboard.js';
import type { SweepCell } from './read-sweep.js';
import { runColumns } from './sweep-cell.test-helpers.js';

const cell = (
  scenario: string,
  arm: string,
  successes: number,
  toolCalls: number[],
  inputTokens: number[],
  impossible = false,
  escalated = 0,
): SweepCell => ({
  scenario,
  arm,
  impossible,
  trials: toolCalls.length,
  successes,
  escalated,
  toolCalls: Float64Array.from(toolCalls),
  inputTokens: Float64Array.from(inputTokens),
  outputTokens: new Float64Array(toolCalls.length),
  ...runColumns(toolCalls.length, { successes, escalated, impossible }),
});
const dups = (arm: string, duplicate_side_effects: number) => ({ arm, duplicate_side_effects }) as CellSummary;

describe('leaderboard', () => {
  it('pools each arm over scenarios, ranks by success, then p95 calls, then p95 tokens', () => {
    const rows = leaderboard(
      [
        cell('a', 'x', 2, [1, 2, 3, 4], [10, 20, 30, 40]),
        cell('b', 'x', 1, [5, 6], [50, 60]),
        cell('a', 'y', 3, [1, 1, 1, 1], [5, 5, 5, 5]),
        cell('b', 'y', 0, [9, 9], [9, 9]),
        // impossible: its escalations are the right outcome, its successes are not
        cell('a', 'z', 4, [1, 1, 1, 1], [1, 1, 1, 1], true, 1),
        cell('b', 'z', 2, [1, 1], [1, 1]),
      ],
      [dups('x', 2), dups('x', 1), dups('y', 0), dups('z', 0)],
    );
    // x: 3/6 right, calls [1,2,3,4,5,6] p95 = 5.75 (type 7); y: 3/6, calls [1,1,1,1,9,9] p95 = 9; z: 3/6, p95 1
    expect(
      rows.map((row) => [
        row.rank,
        row.arm,
        row.rightOutcome.successes,
        row.runs,
        row.p95ToolCalls,
        row.duplicateSideEffects,
      ]),
    ).toEqual([
      [1, 'z', 3, 6, 1, 0],
      [2, 'x', 3, 6, 5.75, 3],
      [3, 'y', 3, 6, 9, 0],
    ]);
    expect(rows[1]!.p95InputTokens).toBe(57.5);
    expect(rows[0]!.rightOutcome.low).toBeCloseTo(0.1876, 4);
    expect(renderLeaderboard(rows, { color: false })).toContain('50.0% [18.8%, 81.2%]');
  });
});
