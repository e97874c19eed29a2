import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import { STUCK_TOOL_NAME, stuckTool } from './stuck-tool.js';

const LOOKUP: Tool = { name: 'lookup', input_schema: { type: 'object' } };

const host = () => recordingHost([LOOKUP]);

const PAYLOAD = {
  summary: 'lookup keeps failing',
  attempted_approaches: ['called lookup twice'],
  specific_question: 'Is the lookup service up?',
};

describe('stuckTool', () => {
  it('offers request_human_help to the model beside the host tools, with permission to stop', async () => {
    const model = new ScriptedModel([{ text: 'nothing to do' }]);
    await new BudgetedAgentLoop({ model, tools: host(), guards: [stuckTool()] }).run('go');

    const tools = model.requests[0]?.tools ?? [];
    expect(tools.map((tool) => ('name' in tool ? tool.name : ''))).toEqual(['lookup', 'request_human_help']);
    const help = tools[1];
    expect(help !== undefined && 'input_schema' in help ? help.input_schema.required : undefined).toEqual([
      'summary',
      'attempted_approaches',
      'specific_question',
    ]);
    expect(help !== undefined && 'description' in help ? help.description : '').toContain(
      'Calling this is preferable to making more guesses or repeated tool calls.',
    );
  });

  it('ends the run at once with outcome escalated and the call input as payload', async () => {
    const model = new ScriptedModel([
      { calls: [{ name: 'lookup', input: {} }] },
      { text: 'I am stuck.', calls: [{ name: STUCK_TOOL_NAME, input: PAYLOAD }] },
      { text: 'never sent' },
    ]);
    const tools = host();
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({
      model,
      tools,
      guards: [stuckTool()],
      onEvent: (e) => events.push(e),
    }).run('go');

    expect(result.outcome).toEqual({ kind: 'escalated', payload: PAYLOAD });
    expect(tools.executed).toEqual(['lookup']);
    expect(model.requests).toHaveLength(2);
    expect(result.metrics.modelCalls).toBe(2);
    expect(events.filter((e) => e.type === 'agent.guardrail.escalated')).toEqual([
      { type: 'agent.guardrail.escalated', at: expect.any(Number), payload: PAYLOAD },
    ]);
    expect(events.at(-1)).toEqual({ type: 'agent_run.completed', at: result.metrics.virtualMs, outcome: 'escalated' });
  });

  it('stops before later calls of the same turn run', async () => {
    const model = new ScriptedModel([
      {
        calls: [
          { name: STUCK_TOOL_NAME, input: PAYLOAD },
          { name: 'lookup', input: {} },
        ],
      },
      { text: 'never sent' },
    ]);
    const tools = host();
    const result = await new BudgetedAgentLoop({ model, tools, guards: [stuckTool()] }).run('go');

    expect(result.outcome.kind).toBe('escalated');
    expect(tools.executed).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });
});
