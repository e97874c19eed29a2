import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import { iterationBudget, MORE_ITERATIONS_TOOL_NAME } from './iteration-budget.js';

const LOOKUP: Tool = {
  name: 'lookup',
  description: 'Look something up.',
  input_schema: { type: 'object', properties: { q: { type: 'number' } } },
};
const lookup = (q: number): ScriptedTurn => ({ calls: [{ name: 'lookup', input: { q } }] });
const askMore: ScriptedTurn = { calls: [{ name: MORE_ITERATIONS_TOOL_NAME, input: { reason: 'two sources left' } }] };

function run(turns: readonly ScriptedTurn[], options = { initial: 3, extension: 2, cap: 6, warnAt: 1 }) {
  const model = new ScriptedModel(turns);
  const host = recordingHost([LOOKUP]);
  const events: AgentEvent[] = [];
  const loop = new BudgetedAgentLoop({
    model,
    tools: host,
    guards: [iterationBudget(options)],
    onEvent: (event) => events.push(event),
  });
  return { model, host, events, result: loop.run('Look things up.') };
}

const lastUserJson = (model: ScriptedModel, call: number) => JSON.stringify(model.requests[call]?.messages.at(-1));

describe('iterationBudget', () => {
  it('stops at the initial limit with max_iterations, after warning once when one call is left', async () => {
    const { model, result } = run([lookup(1), lookup(2), lookup(3), lookup(4)]);
    expect((await result).outcome).toEqual({ kind: 'max_iterations', iterations: 3 });
    expect(model.requests).toHaveLength(3);
    expect(model.requests[0]?.tools?.map((tool) => ('name' in tool ? tool.name : ''))).toEqual([
      'lookup',
      MORE_ITERATIONS_TOOL_NAME,
    ]);
    expect(lastUserJson(model, 1)).not.toContain('left in this run');
    expect(lastUserJson(model, 2)).toContain(
      'You have 1 model call left in this run. If you need more to finish, call request_more_iterations',
    );
  });

  it('grants the extension on request, up to the hard cap, and refuses beyond it', async () => {
    const { model, host, events, result } = run([
      lookup(1),
      askMore,
      lookup(2),
      askMore,
      askMore,
      lookup(3),
      { text: 'never reached' },
    ]);
    expect((await result).outcome).toEqual({ kind: 'max_iterations', iterations: 6 });
    expect(model.requests).toHaveLength(6);
    expect(host.executed).toEqual(['lookup', 'lookup', 'lookup']);
    expect(events.filter((event) => event.type === 'agent.iterations.extended')).toEqual([
      { type: 'agent.iterations.extended', at: 1577, granted: 2, limit: 5 },
      { type: 'agent.iterations.extended', at: 3162, granted: 1, limit: 6 },
    ]);
    expect(lastUserJson(model, 2)).toContain('Granted 2 more turns: the limit is now 5 model calls (3 left).');
    expect(lastUserJson(model, 5)).toContain('No more turns can be granted: the hard cap of 6 model calls is reached.');
  });

  it('lets a run that finishes in time finish', async () => {
    const { result } = run([lookup(1), { text: 'done' }]);
    expect((await result).outcome).toEqual({ kind: 'completed', finalText: 'done' });
  });
});
