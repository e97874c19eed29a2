import { describe, expect, it } from 'vitest';
import { prioritiseTraces } from './drill-down-select.js';
import type { TraceLine } from './report-input.js';

function trace(arm: string, seed: number, reasons: string[], toolCalls: number): TraceLine {
  return { scenario: 's', arm, seed, reasons, record: { tool_calls: toolCalls } } as unknown as TraceLine;
}

describe('prioritiseTraces', () => {
  it('offers each cell its worst run first, then a harmful run, a failure and an escalation, round by round over the cells', () => {
    const traces = [
      trace('none', 3, ['failure'], 9),
      trace('none', 5, ['escalated'], 4),
      trace('none', 7, ['worst_tool_calls'], 120),
      trace('none', 9, ['worst_tool_calls', 'harmful'], 210),
      trace('none', 11, ['harmful'], 30),
      trace('article', 2, ['escalated'], 6),
      trace('article', 4, ['worst_tool_calls', 'failure'], 15),
    ];
    expect(prioritiseTraces(traces).map((t) => `${t.arm}/${t.seed}`)).toEqual([
      'none/9', // worst of none (210 calls)
      'article/4', // worst of article
      'none/11', // harmful
      'article/2', // escalated
      'none/3', // failure
      'none/5', // escalated
      'none/7', // second worst
    ]);
  });
});
