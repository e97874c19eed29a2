import type { Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { Message, ModelClient, ModelRequest } from '../model/model-client.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import { BudgetedAgentLoop } from './budgeted-agent-loop.js';
import type { AgentEvent } from './events.js';
import type { Guard } from './guard.js';
import type { RunResult } from './outcome.js';
import type { ToolHost } from './tool-host.js';

const X: Tool = { name: 'x', input_schema: { type: 'object' } };

/** A host with one tool `x` whose handler is given. */
function hostWith(
  execute: (name: string, input: Record<string, unknown>) => ToolExecution,
): ToolHost & { calls: number } {
  const host = {
    definitions: [X],
    calls: 0,
    traits: (name: string) => (name === 'x' ? { sideEffecting: false, concurrencySafe: true } : undefined),
    execute(name: string, input: Record<string, unknown>): ToolExecution {
      host.calls += 1;
      return execute(name, input);
    },
  };
  return host;
}

const okHost = () => hostWith(() => ({ kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null }));
const callX: ScriptedTurn = { calls: [{ name: 'x', input: {} }] };

function toolResults(result: RunResult): ToolResultBlockParam[] {
  return result.messages.flatMap((message) =>
    message.role === 'user' && typeof message.content !== 'string'
      ? message.content.filter((block): block is ToolResultBlockParam => block.type === 'tool_result')
      : [],
  );
}

/** A model that calls `x` forever, counting its calls. */
class AlwaysCallsTool implements ModelClient {
  readonly name = 'always';
  calls = 0;
  readonly #inner = new ScriptedModel(Array.from({ length: 100 }, () => callX));
  create(request: ModelRequest): Promise<Message> {
    this.calls += 1;
    return this.#inner.create(request);
  }
}

describe('BudgetedAgentLoop', () => {
  it('turns a throwing tool handler into an error tool result and carries on', async () => {
    const host = hostWith(() => {
      throw new Error('boom');
    });
    const model = new ScriptedModel([callX, { text: 'recovered' }]);
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({ model, tools: host, onEvent: (e) => events.push(e) }).run('go');

    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'recovered' });
    expect(toolResults(result)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_script_0_0', content: "Error: Tool 'x' failed: boom", is_error: true },
    ]);
    // The model saw the error result on its second call.
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain("Tool 'x' failed: boom");
    expect(events.find((e) => e.type === 'agent.tool.result')).toMatchObject({
      isError: true,
      content: "Error: Tool 'x' failed: boom",
    });
  });

  it('ends with failed and a configuration error when the model calls a tool nobody provides', async () => {
    const host = okHost();
    const model = new ScriptedModel([{ calls: [{ name: 'no_such_tool', input: {} }] }, { text: 'never sent' }]);
    const result = await new BudgetedAgentLoop({ model, tools: host }).run('go');

    expect(result.outcome.kind).toBe('failed');
    expect(result.outcome.kind === 'failed' ? result.outcome.reason : '').toBe(
      "configuration error: the model called 'no_such_tool', which no tool host or guard provides",
    );
    expect(host.calls).toBe(0);
    expect(model.requests).toHaveLength(1);
  });

  it('stops with max_iterations after maxIterations model calls', async () => {
    const model = new AlwaysCallsTool();
    const host = okHost();
    const result = await new BudgetedAgentLoop({ model, tools: host, maxIterations: 2 }).run('go');

    expect(result.outcome).toEqual({ kind: 'max_iterations', iterations: 2 });
    expect(model.calls).toBe(2);
    expect(host.calls).toBe(2);
    expect(result.metrics).toMatchObject({ modelCalls: 2, toolCalls: 2, toolExecutions: 2 });
  });

  it("checks cancellation after a tool batch: the turn's calls all finish and their results are kept, no call is cut short", async () => {
    const controller = new AbortController();
    const host = hostWith(() => {
      controller.abort('deadline');
      return { kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null };
    });
    const model = new ScriptedModel([
      {
        calls: [
          { name: 'x', input: { n: 1 } },
          { name: 'x', input: { n: 2 } },
        ],
      },
      { text: 'never sent' },
    ]);
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      signal: controller.signal,
      onEvent: (e) => events.push(e),
    }).run('go');

    expect(result.outcome).toEqual({ kind: 'cancelled', reason: 'deadline' });
    expect(host.calls).toBe(2);
    expect(model.requests).toHaveLength(1);
    expect(toolResults(result).map((block) => block.content)).toEqual(['{"ok":true}', '{"ok":true}']);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['agent_run.cancelled', 'agent_run.completed']);
  });

  it("starts from an earlier session's history, as given", async () => {
    const model = new ScriptedModel([{ text: 'continuing' }]);
    const history = [
      { role: 'user' as const, content: 'first session' },
      { role: 'assistant' as const, content: 'noted' },
    ];
    const result = await new BudgetedAgentLoop({ model, tools: okHost(), history }).run('go on');
    expect(model.requests[0]?.messages).toEqual([...history, { role: 'user', content: 'go on' }]);
    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'continuing' });
  });

  it('returns cancelled without calling the model when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort('user pressed ctrl-c');
    const model = new AlwaysCallsTool();
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({
      model,
      tools: okHost(),
      signal: controller.signal,
      onEvent: (e) => events.push(e),
    }).run('go');

    expect(result.outcome).toEqual({ kind: 'cancelled', reason: 'user pressed ctrl-c' });
    expect(model.calls).toBe(0);
    expect(result.metrics.modelCalls).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['agent_run.started', 'agent_run.cancelled', 'agent_run.completed']);
  });

  it('checks the signal again after a tool batch, before the next model call', async () => {
    const controller = new AbortController();
    const host = hostWith(() => {
      controller.abort('stop after the tool');
      return { kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null };
    });
    const model = new AlwaysCallsTool();
    const result = await new BudgetedAgentLoop({ model, tools: host, signal: controller.signal }).run('go');

    expect(result.outcome).toEqual({ kind: 'cancelled', reason: 'stop after the tool' });
    expect(model.calls).toBe(1);
    expect(host.calls).toBe(1);
  });

  // BUG (src/loop/budgeted-agent-loop.ts:90-94): when the run is cancelled while the model
  // call is in flight, the client rejects with an abort error and the loop reports
  // `failed: model call failed: ...` instead of `cancelled`; the catch does not look at
  // `signal.aborted`. A user who cancels a run sees it counted as a failure.
  it('reports a cancellation during the model call as cancelled, not failed', async () => {
    const controller = new AbortController();
    const model: ModelClient = {
      name: 'aborting',
      create(_request, options) {
        controller.abort('user pressed ctrl-c');
        expect(options?.signal).toBe(controller.signal);
        return Promise.reject(new Error('Request was aborted.'));
      },
    };
    const result = await new BudgetedAgentLoop({ model, tools: okHost(), signal: controller.signal }).run('go');

    expect(result.outcome).toEqual({ kind: 'cancelled', reason: 'user pressed ctrl-c' });
  });

  it('nests guard model-call wrappers in guard order, first innermost, and lets one end the run', async () => {
    const order: string[] = [];
    const wrapper = (name: string, model?: string): Guard => ({
      name,
      async aroundModelCall(_ctx, request, next) {
        order.push(`${name}:${request.model}`);
        return next(model === undefined ? request : { ...request, model });
      },
    });
    const model = new ScriptedModel([{ text: 'done' }]);
    const result = await new BudgetedAgentLoop({
      model,
      tools: okHost(),
      guards: [wrapper('inner'), wrapper('outer', 'other-model')],
    }).run('go');
    expect(result.outcome.kind).toBe('completed');
    expect(order).toEqual(['outer:claude-sonnet-5-5', 'inner:other-model']);
    expect(model.requests[0]?.model).toBe('other-model');

    const stopper: Guard = {
      name: 'stopper',
      aroundModelCall: async () => ({ kind: 'stop', outcome: { kind: 'failed', reason: 'no model today' } }),
    };
    const stopped = await new BudgetedAgentLoop({
      model: new ScriptedModel([]),
      tools: okHost(),
      guards: [stopper],
    }).run('go');
    expect(stopped.outcome).toEqual({ kind: 'failed', reason: 'no model today' });
    expect(stopped.metrics.modelCalls).toBe(0);
  });

  it('adds model latency and tool latency to the virtual clock and returns the whole conversation', async () => {
    const model = new ScriptedModel([callX, { text: 'done' }]);
    const events: AgentEvent[] = [];
    const result = await new BudgetedAgentLoop({ model, tools: okHost(), onEvent: (e) => events.push(e) }).run('go');

    const modelCalls = events.flatMap((e) => (e.type === 'agent.model.call' ? [e] : []));
    const modelMs = modelCalls.reduce(
      (sum, e) => sum + 400 + Math.round(e.inputTokens * 0.05) + e.outputTokens * 20,
      0,
    );
    expect(result.metrics.virtualMs).toBe(modelMs + 100);
    expect(result.metrics.inputTokens).toBe(modelCalls.reduce((sum, e) => sum + e.inputTokens, 0));
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(result.messages[0]).toEqual({ role: 'user', content: 'go' });
  });
});

/** Settles after a few turns of the event loop: later than any synchronous answer, with no timer. */
function later<T>(value: () => T, turns = 3): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const step = (left: number): void => {
      if (left > 0) return void setImmediate(() => step(left - 1));
      try {
        resolve(value());
      } catch (error) {
        reject(error);
      }
    };
    step(turns);
  });
}

describe('BudgetedAgentLoop with tools that answer through a promise', () => {
  it('turns a rejected asynchronous tool into an error tool result and carries on', async () => {
    const host = {
      ...okHost(),
      execute: (): Promise<ToolExecution> =>
        later(() => {
          throw new Error('boom later');
        }),
    };
    const model = new ScriptedModel([callX, { text: 'recovered' }]);
    const result = await new BudgetedAgentLoop({ model, tools: host }).run('go');
    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'recovered' });
    expect(toolResults(result)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_script_0_0',
        content: "Error: Tool 'x' failed: boom later",
        is_error: true,
      },
    ]);
    expect(result.metrics).toMatchObject({ toolCalls: 1, toolExecutions: 1 });
  });

  it('keeps a mixed turn in request order, on the same virtual clock, concurrent or not', async () => {
    const tools: Tool[] = ['read_a', 'read_slow', 'write_c', 'read_d'].map((name) => ({
      name,
      input_schema: { type: 'object' },
    }));
    const turn: ScriptedTurn = { calls: tools.map((tool) => ({ name: tool.name, input: {} })) };
    const run = async (answers: 'at once' | 'mixed', concurrent: boolean) => {
      const executed: string[] = [];
      const host: ToolHost = {
        definitions: tools,
        traits: (name) => ({ sideEffecting: name.startsWith('write'), concurrencySafe: name.startsWith('read') }),
        execute(name) {
          executed.push(name);
          const execution: ToolExecution = {
            kind: 'ok',
            content: `{"${name}":1}`,
            latencyMs: name.length * 100,
            fault: null,
          };
          // The slow read settles last of all, after calls the loop could have started meanwhile.
          return answers === 'mixed' && name === 'read_slow' ? later(() => execution, 10) : execution;
        },
      };
      const events: AgentEvent[] = [];
      const guards: Guard[] = concurrent ? [{ name: 'concurrency', concurrentTools: true }] : [];
      const result = await new BudgetedAgentLoop({
        model: new ScriptedModel([turn, turn, { text: 'done' }]),
        tools: host,
        guards,
        onEvent: (event) => events.push(event),
      }).run('go');
      return { executed, events, result };
    };
    for (const concurrent of [false, true]) {
      const sync = await run('at once', concurrent);
      const mixed = await run('mixed', concurrent);
      expect(mixed.executed).toEqual([
        'read_a',
        'read_slow',
        'write_c',
        'read_d',
        'read_a',
        'read_slow',
        'write_c',
        'read_d',
      ]);
      expect(toolResults(mixed.result).map((block) => block.content)).toEqual(
        [...tools, ...tools].map((tool) => `{"${tool.name}":1}`),
      );
      expect(mixed).toEqual(sync);
    }
    // Concurrency shows on the clock alone: the two leading reads share a start.
    const serial = (await run('mixed', false)).result.metrics.virtualMs;
    expect((await run('mixed', true)).result.metrics.virtualMs).toBe(serial - 2 * 600);
  });
});
