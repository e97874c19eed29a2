import { describe, expect, it } from 'vitest';
import type { CellSummary } from '../stats/cell-summary.js';
import { describe as describeValues } from '../stats/descriptive.js';
import { wilson } from '../stats/wilson.js';
import { renderCellTables, renderPassHatK, renderScenarioMatrix } from './terminal-table.js';

// A merged shard's summary.json can name its cells anything: these would clear the screen.
const EVIL_SCENARIO = 'merged\u001b[2J';
const EVIL_ARM = 'arm\u009b31m\r';

function cell(scenario: string, arm: string): CellSummary {
  const calls = Float64Array.from([2, 3, 5]);
  return {
    scenario,
    arm,
    runs: 3,
    success: wilson(2, 3),
    right_outcome: wilson(2, 3),
    verdicts: { success: 2, failure: 1 },
    outcomes: { completed: 3 },
    tool_calls: describeValues(calls),
    tool_executions: describeValues(calls),
    model_calls: describeValues(calls),
    input_tokens: describeValues(calls),
    output_tokens: describeValues(calls),
    virtual_ms: describeValues(calls),
    duplicate_side_effects: 0,
  };
}

// SGR colour codes of our own (ESC [ digits m) are the only escapes a table may hold.
const foreign = (text: string) => text.replace(/\u001b\[\d+m/g, '');
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('terminal tables', () => {
  const cells = [cell(EVIL_SCENARIO, EVIL_ARM), cell('fetch-transform-write', 'none')];

  it.each([false, true])('show scenario and arm names with their control characters escaped (colour %s)', (color) => {
    for (const text of [renderCellTables(cells, { color }), renderScenarioMatrix(cells, { color })]) {
      expect(foreign(text)).not.toMatch(RAW);
      expect(text).toContain('merged\\x1b[2J');
      expect(text).toContain('arm\\x9b31m\\x0d');
    }
  });

  it('colour only when asked', () => {
    expect(renderCellTables(cells)).not.toContain('\u001b');
    expect(renderCellTables(cells, { color: true })).toContain('\u001b[36m');
  });

  it('pass^k lines escape arm names too', () => {
    const text = renderPassHatK([{ arm: EVIL_ARM, k: { 1: 0.5 } }]);
    expect(text).not.toMatch(RAW);
    expect(text).toContain('arm\\x9b31m\\x0d');
  });
});
