import type { Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { notFound, ToolError } from '../../tools/tool-error.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { modelLatencyMs } from '../model-latency.js';
import type { RunResult } from '../outcome.js';
import type { ToolHost, ToolTraits } from '../tool-host.js';
import { classify, errorClassification } from './error-classification.js';

const TOOL: Tool = { name: 'fetch_thing', input_schema: { type: 'object' } };

/** A host whose one tool returns the scripted executions in order, then fails the test. */
function scriptedHost(
  script: readonly ToolExecution[],
  traits: ToolTraits = { sideEffecting: false, concurrencySafe: true },
) {
  let executions = 0;
  const host: ToolHost = {
    definitions: [TOOL],
    traits: (name) => (name === TOOL.name ? traits : undefined),
    execute() {
      const next = script[executions];
      executions += 1;
      if (next === undefined) throw new Error(`script exhausted after ${script.length} executions`);
      return next;
    },
  };
  return { host, executions: () => executions };
}

const ok = (content = '{"ok":true}', latencyMs = 10): ToolExecution => ({
  kind: 'ok',
  content,
  latencyMs,
  fault: null,
});
const err = (error: ToolError, latencyMs = 10): ToolExecution => ({ kind: 'error', error, latencyMs, fault: null });
const timeout = (): ToolError => new ToolError('timeout', 'fetch_thing: request timed out after 10000 ms');

interface Outcome {
  readonly result: RunResult;
  readonly events: AgentEvent[];
  readonly executions: number;
  /** What the model was told about its one tool call. */
  readonly toolResult: ToolResultBlockParam | undefined;
}

async function runOneCall(script: readonly ToolExecution[], traits?: ToolTraits): Promise<Outcome> {
  const { host, executions } = scriptedHost(script, traits);
  const model = new ScriptedModel([{ calls: [{ name: 'fetch_thing', input: { id: 7 } }] }, { text: 'finished' }]);
  const events: AgentEvent[] = [];
  const loop = new BudgetedAgentLoop({
    model,
    tools: host,
    guards: [errorClassification()],
    clock: new VirtualClock(),
    onEvent: (e) => events.push(e),
  });
  const result = await loop.run('Fetch thing 7.');
  const reply = result.messages[2];
  const toolResult =
    reply?.role === 'user' && typeof reply.content !== 'string'
      ? reply.content.find((block): block is ToolResultBlockParam => block.type === 'tool_result')
      : undefined;
  return { result, events, executions: executions(), toolResult };
}

const retryDelays = (events: readonly AgentEvent[]): number[] =>
  events.flatMap((e) => (e.type === 'agent.tool.retry' ? [e.delayMs] : []));
const modelTime = (events: readonly AgentEvent[]): number =>
  events.reduce(
    (sum, e) =>
      sum +
      (e.type === 'agent.model.call'
        ? modelLatencyMs({ input_tokens: e.inputTokens, output_tokens: e.outputTokens })
        : 0),
    0,
  );

describe('classify', () => {
  it('reads retryability off the error code', () => {
    expect(classify(timeout())).toBe('transient');
    expect(classify(new ToolError('rate_limited', '429', { status: 429, retryAfterMs: 5000 }))).toBe('transient');
    expect(classify(new ToolError('malformed_response', 'cut off'))).toBe('transient');
    expect(classify(notFound('gone'))).toBe('permanent');
    expect(classify(new ToolError('unauthorized', 'no'))).toBe('permanent');
    expect(classify(new ToolError('handler_exception', 'boom'))).toBe('permanent');
  });
});

describe('errorClassification', () => {
  it('retries a transient failure of an idempotent tool 3 times with 1 s, 2 s, 4 s of virtual backoff', async () => {
    const { result, events, executions, toolResult } = await runOneCall([
      err(timeout(), 10),
      err(timeout(), 20),
      err(timeout(), 30),
      ok('{"v":1}', 40),
    ]);

    expect(executions).toBe(4);
    expect(retryDelays(events)).toEqual([1000, 2000, 4000]);
    expect(
      events
        .filter((e) => e.type === 'agent.tool.retry')
        .map((e) => (e.type === 'agent.tool.retry' ? [e.attempt, e.code] : [])),
    ).toEqual([
      [1, 'timeout'],
      [2, 'timeout'],
      [3, 'timeout'],
    ]);
    expect(toolResult).toEqual({ type: 'tool_result', tool_use_id: 'toolu_script_0_0', content: '{"v":1}' });
    expect(result.metrics).toMatchObject({ toolCalls: 1, toolExecutions: 4, toolRetries: 3, modelCalls: 2 });
    // Latencies 10+20+30+40, backoffs 1000+2000+4000, plus the two model calls.
    expect(modelTime(events)).toBeGreaterThan(800);
    expect(result.metrics.virtualMs).toBe(100 + 7000 + modelTime(events));
  });

  it('waits the retry-after of a 429 when it is longer than the backoff', async () => {
    const rateLimited = new ToolError('rate_limited', 'fetch_thing: HTTP 429 Too Many Requests', {
      status: 429,
      retryAfterMs: 5000,
    });
    const { result, events, executions, toolResult } = await runOneCall([err(rateLimited, 50), ok('{"v":2}', 10)]);

    expect(executions).toBe(2);
    expect(retryDelays(events)).toEqual([5000]);
    expect(toolResult?.content).toBe('{"v":2}');
    expect(result.metrics.virtualMs).toBe(60 + 5000 + modelTime(events));
  });

  it('does not retry a permanent failure and tells the model not to retry with the same arguments', async () => {
    const { events, executions, toolResult } = await runOneCall([err(notFound("no thing with id '7'"))]);

    expect(executions).toBe(1);
    expect(retryDelays(events)).toEqual([]);
    expect(toolResult?.is_error).toBe(true);
    expect(toolResult?.content).toBe(
      "Error: Permanent failure: Not found (HTTP 404): no thing with id '7'. Do not retry with the same arguments.",
    );
  });

  it('never retries a side-effecting tool and warns that the operation may have been applied', async () => {
    const { events, executions, toolResult } = await runOneCall([err(timeout()), ok()], {
      sideEffecting: true,
      concurrencySafe: false,
    });

    expect(executions).toBe(1);
    expect(retryDelays(events)).toEqual([]);
    expect(toolResult?.is_error).toBe(true);
    expect(toolResult?.content).toContain('may have been applied');
    expect(toolResult?.content).not.toContain('May succeed if retried.');
  });

  it('after exhausting the retries tells the model the failure may succeed if retried', async () => {
    const { events, executions, toolResult } = await runOneCall([
      err(timeout()),
      err(timeout()),
      err(timeout()),
      err(timeout()),
      ok(),
    ]);

    expect(executions).toBe(4);
    expect(retryDelays(events)).toEqual([1000, 2000, 4000]);
    expect(toolResult?.is_error).toBe(true);
    expect(toolResult?.content).toBe(
      'Error: Network timeout: fetch_thing: request timed out after 10000 ms. May succeed if retried.',
    );
  });

  it('treats an ok execution whose body is not valid JSON as a transient malformed response and retries it', async () => {
    const { events, executions, toolResult } = await runOneCall([ok('{"id":"u_10'), ok('{"id":"u_1042"}')]);

    expect(executions).toBe(2);
    expect(events.flatMap((e) => (e.type === 'agent.tool.retry' ? [[e.code, e.delayMs]] : []))).toEqual([
      ['malformed_response', 1000],
    ]);
    expect(toolResult).toEqual({ type: 'tool_result', tool_use_id: 'toolu_script_0_0', content: '{"id":"u_1042"}' });
  });

  it('words a body that never parses as a malformed response once retries run out', async () => {
    const cut = ok('{"id":"u_10');
    const { executions, toolResult } = await runOneCall([cut, cut, cut, cut]);

    expect(executions).toBe(4);
    expect(toolResult?.is_error).toBe(true);
    expect(toolResult?.content).toBe(
      'Error: Malformed response: fetch_thing returned a body that is not valid JSON. May succeed if retried.',
    );
  });
});

describe('errorClassification over an asynchronous tool', () => {
  /** The run of one call against `script`, each execution answered at once or through a promise. */
  async function run(script: readonly ToolExecution[], answers: 'at once' | 'later' | 'mixed') {
    const { host: sync, executions } = scriptedHost(script);
    let n = 0;
    const host: ToolHost = {
      ...sync,
      execute(name, input) {
        const execution = sync.execute(name, input);
        n += 1;
        const later = answers === 'later' || (answers === 'mixed' && n % 2 === 0);
        return later
          ? new Promise<ToolExecution>((resolve) => setImmediate(() => resolve(execution as ToolExecution)))
          : execution;
      },
    };
    const model = new ScriptedModel([{ calls: [{ name: 'fetch_thing', input: { id: 7 } }] }, { text: 'finished' }]);
    const events: AgentEvent[] = [];
    const clock = new VirtualClock();
    const result = await new BudgetedAgentLoop({
      model,
      tools: host,
      guards: [errorClassification()],
      clock,
      onEvent: (e) => events.push(e),
    }).run('Fetch thing 7.');
    return { events, metrics: result.metrics, messages: result.messages, executions: executions() };
  }

  it('retries with the same backoffs at the same virtual times, whether executions answer at once or later', async () => {
    const rateLimited = new ToolError('rate_limited', 'fetch_thing: HTTP 429', { status: 429, retryAfterMs: 5000 });
    const script = [err(timeout(), 10), err(rateLimited, 20), ok('{"v', 30), ok('{"v":1}', 40)];
    const atOnce = await run(script, 'at once');
    expect(atOnce.executions).toBe(4);
    expect(retryDelays(atOnce.events)).toEqual([1000, 5000, 4000]);
    expect(atOnce.metrics.virtualMs).toBe(100 + 10_000 + modelTime(atOnce.events));
    expect(await run(script, 'later')).toEqual(atOnce);
    expect(await run(script, 'mixed')).toEqual(atOnce);
  });
});
