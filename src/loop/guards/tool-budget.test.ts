import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { ToolError } from '../../tools/tool-error.js';
import { errorClassification } from './error-classification.js';
import { repeatFingerprint } from './repeat-fingerprint.js';
import { toolBudget } from './tool-budget.js';

const LOOKUP: Tool = {
  name: 'lookup',
  description: 'Look something up.',
  input_schema: { type: 'object', properties: { q: { type: 'number' } } },
};

const okHost = () => recordingHost([LOOKUP]);

const call = (q: number): ScriptedTurn => ({ calls: [{ name: 'lookup', input: { q } }] });

/** The text of the last text block of the last user message of a request. */
function lastUserText(messages: readonly MessageParam[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user') return undefined;
  if (typeof last.content === 'string') return last.content;
  const texts = last.content.filter((block) => block.type === 'text');
  return texts.at(-1)?.text;
}

describe('toolBudget', () => {
  it('at the ceiling sends one neutral message with tool_choice none and takes the reply as the final answer', async () => {
    const model = new ScriptedModel([call(1), call(2), call(3), { text: 'I learned that q=1..3 are ok.' }]);
    const host = okHost();
    const events: AgentEvent[] = [];
    const loop = new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [toolBudget({ maxToolCalls: 3 })],
      onEvent: (e) => events.push(e),
    });

    const result = await loop.run('Look things up.');

    expect(result.outcome).toEqual({
      kind: 'budget_exhausted',
      finalText: 'I learned that q=1..3 are ok.',
      toolCalls: 3,
    });
    expect(model.requests).toHaveLength(4);
    expect(result.metrics.modelCalls).toBe(4);
    expect(result.metrics.toolCalls).toBe(3);
    expect(host.executed).toEqual(['lookup', 'lookup', 'lookup']);

    const [first, second, third, fourth] = model.requests;
    expect(first?.tool_choice).toBeUndefined();
    expect(second?.tool_choice).toBeUndefined();
    expect(third?.tool_choice).toBeUndefined();
    expect(fourth?.tool_choice).toEqual({ type: 'none' });
    expect(lastUserText(fourth?.messages ?? [])).toBe(
      'Tool budget exhausted (3 calls). Summarize what you have learned and return a final answer.',
    );
    // The third tool result is still delivered, in the same user message as the notice.
    const last = fourth?.messages.at(-1);
    expect(Array.isArray(last?.content) ? last.content.map((block) => block.type) : last?.content).toEqual([
      'tool_result',
      'text',
    ]);

    expect(events.filter((e) => e.type === 'agent.budget.exhausted')).toEqual([
      { type: 'agent.budget.exhausted', at: expect.any(Number), toolCalls: 3, limit: 3 },
    ]);
  });

  it('under the budget lets the run complete normally without ever sending tool_choice', async () => {
    const model = new ScriptedModel([call(1), call(2), { text: 'Done.' }]);
    const host = okHost();
    const loop = new BudgetedAgentLoop({ model, tools: host, guards: [toolBudget({ maxToolCalls: 3 })] });

    const result = await loop.run('Look things up.');

    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'Done.' });
    expect(model.requests).toHaveLength(3);
    expect(model.requests.map((request) => request.tool_choice)).toEqual([undefined, undefined, undefined]);
    expect(model.requests.every((request) => !('tool_choice' in request))).toBe(true);
    expect(host.executed).toHaveLength(2);
  });

  it('runs the calls of a turn up to the ceiling and answers the rest without running them', async () => {
    const model = new ScriptedModel([
      call(1),
      { calls: [2, 3, 4].map((q) => ({ name: 'lookup', input: { q } })) },
      { text: 'Done.' },
    ]);
    const host = okHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, guards: [toolBudget({ maxToolCalls: 3 })] }).run(
      'Look things up.',
    );

    expect(host.executed).toHaveLength(3);
    const results = model.requests[2]!.messages.at(-1)!.content as Array<{
      type: string;
      content?: unknown;
      is_error?: boolean;
    }>;
    expect(
      results.filter((block) => block.type === 'tool_result').map((block) => [block.content, block.is_error === true]),
    ).toEqual([
      ['{"ok":true}', false],
      ['{"ok":true}', false],
      ['Not run: the tool budget (3 calls) is used up.', true],
    ]);
    expect(result.outcome.kind).toBe('budget_exhausted');
    expect(result.metrics.toolCalls).toBe(4);
  });
});

describe('toolBudget counts', () => {
  /** A call refused by the repeat guard, then two that run: three requested, two executed. */
  const script = (): ScriptedTurn[] => [call(1), call(1), call(2), call(3), { text: 'Done.' }];

  it("by default counts every call the model asked for, a refused one included (the article's 'count every tool call')", async () => {
    const model = new ScriptedModel(script());
    const host = okHost();
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [toolBudget({ maxToolCalls: 3 }), repeatFingerprint()],
    }).run('Look things up.');
    expect(host.executed).toHaveLength(2);
    expect(result.metrics).toMatchObject({ toolCalls: 3, toolExecutions: 2 });
    expect(result.outcome).toMatchObject({ kind: 'budget_exhausted', toolCalls: 3 });
  });

  it("with counts 'executed' counts what reached the tools: not a refused call", async () => {
    const model = new ScriptedModel(script());
    const host = okHost();
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [toolBudget({ maxToolCalls: 3, counts: 'executed' }), repeatFingerprint()],
      onEvent: (event) => events.push(event),
    }).run('Look things up.');
    expect(host.executed).toHaveLength(3);
    expect(result.metrics).toMatchObject({ toolCalls: 4, toolExecutions: 3 });
    expect(result.outcome.kind).toBe('budget_exhausted');
    expect(events.find((event) => event.type === 'agent.budget.exhausted')).toMatchObject({ toolCalls: 3, limit: 3 });
    expect(lastUserText(model.requests.at(-1)?.messages ?? [])).toBe(
      'Tool budget exhausted (3 tool executions). Summarize what you have learned and return a final answer.',
    );
  });

  it("with counts 'executed' counts the executor's automatic retries, which 'requested' does not", async () => {
    /** `lookup` times out on its first execution, then answers. */
    const flakyHost = () => {
      let executions = 0;
      return {
        ...okHost(),
        execute(): ToolExecution {
          executions += 1;
          return executions === 1
            ? { kind: 'error', error: new ToolError('timeout', 'timed out'), latencyMs: 10, fault: 'timeout' }
            : { kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null };
        },
      };
    };
    const outcomes = [];
    for (const counts of ['requested', 'executed'] as const) {
      const result = await new BudgetedAgentLoop({
        model: new ScriptedModel([call(1), call(2), { text: 'Done.' }, { text: 'Done.' }]),
        tools: flakyHost(),
        guards: [toolBudget({ maxToolCalls: 3, counts }), errorClassification({ backoffMs: [0] })],
      }).run('Look things up.');
      expect(result.metrics).toMatchObject({ toolCalls: 2, toolExecutions: 3 });
      outcomes.push(result.outcome.kind);
    }
    expect(outcomes).toEqual(['completed', 'budget_exhausted']);
  });
});
