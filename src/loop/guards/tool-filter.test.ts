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
  it("offers the read-only tools, the side-effecting ones the task's words name, and the guards' own tools", async () => {
    const model = new ScriptedModel([{ text: 'done' }]);
    await new BudgetedAgentLoop({ model, tools: host(), guards: [toolFilter(), stuckTool()] }).run(
      'Read src_01, then email a summary to ann@example.com with send_email.',
    );
    expect(offered(model)).toEqual(['read_source', 'send_email', 'request_human_help']);
  });

  it('leaves out every write the task does not name, and offers exactly the allowed tools when given', async () => {
    const reads = new ScriptedModel([{ text: 'done' }]);
    await new BudgetedAgentLoop({ model: reads, tools: host(), guards: [toolFilter()] }).run('Summarise the sources.');
    expect(offered(reads)).toEqual(['read_source']);
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
