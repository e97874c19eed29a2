import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import { SOFT_LIMIT_MESSAGE, timeLimits } from './time-limits.js';

const LOOKUP: Tool = {
  name: 'lookup',
  description: 'Look something up.',
  input_schema: { type: 'object', properties: { q: { type: 'number' } } },
};
const lookup = (q: number): ScriptedTurn => ({ calls: [{ name: 'lookup', input: { q } }] });
// Each turn of this script costs ~0.75 s of virtual time: the tool results land at 742, 1486, 2231, ... ms.
const turns = [lookup(1), lookup(2), lookup(3), lookup(4), lookup(5), { text: 'Summary: looked up 1-3.' }];

async function run(softMs: number | null, hardMs: number | null) {
  const model = new ScriptedModel(turns);
  const host = recordingHost([LOOKUP]);
  const result = await new BudgetedAgentLoop({ model, tools: host, guards: [timeLimits({ softMs, hardMs })] }).run(
    'Look things up.',
  );
  return { model, host, result };
}

describe('timeLimits', () => {
  it('past the soft limit takes one last turn without tools and ends timed_out with its text', async () => {
    const { model, host, result } = await run(2000, null);
    expect(host.executed).toEqual(['lookup', 'lookup', 'lookup']);
    expect(model.requests.map((request) => request.tool_choice?.type ?? 'auto')).toEqual([
      'auto',
      'auto',
      'auto',
      'none',
    ]);
    expect(JSON.stringify(model.requests[3]?.messages.at(-1))).toContain(SOFT_LIMIT_MESSAGE);
    expect(result.outcome).toEqual({
      kind: 'timed_out',
      limit: 'soft',
      finalText: '',
      elapsedMs: result.metrics.virtualMs,
    });
  });

  it('past the hard limit stops after the tool batch, keeping its results, without another model call', async () => {
    const { model, host, result } = await run(null, 1400);
    expect(model.requests).toHaveLength(2);
    expect(host.executed).toEqual(['lookup', 'lookup']);
    expect(result.outcome.kind).toBe('timed_out');
    expect(result.outcome).toMatchObject({ limit: 'hard', finalText: null });
    expect(result.messages.at(-1)?.role).toBe('user');
  });

  it('with no limit passed changes nothing', async () => {
    const { model, result } = await run(1e9, 1e9);
    expect(model.requests).toHaveLength(6);
    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'Summary: looked up 1-3.' });
  });
});
