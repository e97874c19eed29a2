import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import { stuckTool } from './stuck-tool.js';
import { toolFilter } from './tool-filter.js';
import { answeringHost } from './trust-guards.test-helpers.js';

const offered = (model: ScriptedModel, turn = 0) =>
  (model.requests[turn]?.tools ?? []).map((tool) => ('name' in tool ? tool.name : ''));

const host = () => answeringHost({ read_source: '{}', write_result: '{}', send_email: '{}' });

describe('toolFilter', () => {
  it("offers only the tools the task's words name, and the guards' own tools", async () => {
    const model = new ScriptedModel([{ text: 'done' }]);
    await new BudgetedAgentLoop({ model, tools: host(), guards: [toolFilter(), stuckTool()] }).run(
      'Read src_01 with read_source, then write a summary with write_result.',
    );
    expect(offered(model)).toEqual(['read_source', 'write_result', 'request_human_help']);
  });

  it('offers every tool when the task names none, and exactly the allowed ones when given', async () => {
    const all = new ScriptedModel([{ text: 'done' }]);
    await new BudgetedAgentLoop({ model: all, tools: host(), guards: [toolFilter()] }).run('Summarise the sources.');
    expect(offered(all)).toEqual(['read_source', 'write_result', 'send_email']);
    const allowed = new ScriptedModel([{ text: 'done' }]);
    await new BudgetedAgentLoop({ model: allowed, tools: host(), guards: [toolFilter({ allow: ['send_email'] })] }).run(
      'Summarise the sources.',
    );
    expect(offered(allowed)).toEqual(['send_email']);
  });

  it('does not run a call of a tool it left out', async () => {
    const tools = host();
    const model = new ScriptedModel([{ calls: [{ name: 'send_email', input: {} }] }, { text: 'done' }]);
    await new BudgetedAgentLoop({ model, tools, guards: [toolFilter()] }).run('Read it with read_source.');
    expect(tools.executed).toEqual([]);
  });
});
