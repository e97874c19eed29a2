import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { ToolHost } from '../tool-host.js';
import { errorClassification } from './error-classification.js';
import { outputContracts } from './output-contracts.js';

/** get_order answering `answers` in turn, with a declared output. */
function orders(answers: string[]): ToolHost & { readonly calls: number } {
  let calls = 0;
  const definitions: Tool[] = [{ name: 'get_order', input_schema: { type: 'object' } }];
  return {
    definitions,
    get calls() {
      return calls;
    },
    traits: () => ({
      sideEffecting: false,
      concurrencySafe: true,
      outputSchema: { type: 'object', required: ['id', 'total'], properties: { total: { type: 'number' } } },
    }),
    execute(): ToolExecution {
      return { kind: 'ok', content: answers[Math.min(calls++, answers.length - 1)]!, latencyMs: 10, fault: null };
    },
  };
}

async function run(answers: string[], withClassify = false) {
  const events: AgentEvent[] = [];
  const model = new ScriptedModel([{ calls: [{ name: 'get_order', input: { order_id: 'o_1' } }] }, { text: 'done' }]);
  const tools = orders(answers);
  const guards = withClassify ? [outputContracts(), errorClassification()] : [outputContracts()];
  await new BudgetedAgentLoop({ model, tools, guards, onEvent: (event) => events.push(event) }).run('Get order o_1.');
  const results = model.requests[1]!.messages.at(-1)!.content;
  const block = Array.isArray(results) && results[0]?.type === 'tool_result' ? results[0] : null;
  return { block, tools, broken: events.filter((event) => event.type === 'agent.contract.broken') };
}

describe('outputContracts', () => {
  it('passes an answer that keeps its contract', async () => {
    const { block, broken } = await run(['{"id":"o_1","total":5}']);
    expect(block?.is_error).not.toBe(true);
    expect(broken).toEqual([]);
  });

  it('fails an answer with a field renamed, or retyped, as a call that may succeed if retried', async () => {
    const renamed = await run(['{"id":"o_1","amount":5}']);
    expect(renamed.block?.is_error).toBe(true);
    expect(String(renamed.block?.content)).toContain('total is missing');
    expect(String(renamed.block?.content)).toContain('May succeed if retried');
    expect((await run(['{"id":"o_1","total":"5"}'])).broken).toMatchObject([
      { problem: 'total is a string, not a number' },
    ]);
  });

  it('fails a record of another entity than the call named', async () => {
    expect((await run(['{"id":"o_2","total":5}'])).broken).toMatchObject([
      { tool: 'get_order', problem: 'it is for o_2, the call asked for o_1' },
    ]);
  });

  it('lets classify fetch again at once: the retry gets the right answer', async () => {
    const { block, tools } = await run(['{"id":"o_2","total":5}', '{"id":"o_1","total":5}'], true);
    expect(tools.calls).toBe(2);
    expect(block?.content).toBe('{"id":"o_1","total":5}');
  });
});
