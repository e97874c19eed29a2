import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../loop/events.js';
import { REFLECTION_MESSAGE } from '../loop/guards/repeat-fingerprint.js';
import { STUCK_TOOL_NAME } from '../loop/guards/stuck-tool.js';
import { wallClock } from '../middleware/wall-clock.js';
import { aiSdkGuards, type AiSdkGuardsOptions } from './ai-sdk-guards.js';

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
let ids = 0;
const calling = (toolName: string, input: unknown): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId: `c${++ids}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: USAGE,
  warnings: [],
});
const answering = (text: string): LanguageModelV3GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: USAGE,
  warnings: [],
});

/** A scripted model: one reply per call, in order; the calls it received. */
function scripted(replies: Array<LanguageModelV3GenerateResult | Error>) {
  const model = new MockLanguageModelV3({
    modelId: 'claude-test',
    doGenerate: async () => {
      const next = replies.shift();
      if (next === undefined) throw new Error('the script ran out');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return model;
}

const textsOf = (call: LanguageModelV3CallOptions) =>
  call.prompt.flatMap((message) =>
    message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
  );

async function agent(
  model: MockLanguageModelV3,
  options: Omit<AiSdkGuardsOptions, 'model' | 'tools'>,
  execute: (input: { id: string }) => Promise<string> = async ({ id }) => `{"id":"${id}"}`,
) {
  const events: AgentEvent[] = [];
  const tools = {
    get_user: tool({ inputSchema: jsonSchema<{ id: string }>({ type: 'object' }), execute }),
  };
  const guards = aiSdkGuards({ ...options, model, tools, onEvent: (event) => events.push(event) });
  const result = await generateText({
    model: guards.model,
    tools: guards.tools,
    prepareStep: guards.prepareStep,
    stopWhen: [stepCountIs(25), guards.stopWhen],
    prompt: 'Fetch u_1.',
    maxRetries: 0,
  });
  return { result, outcome: guards.outcome(result), events };
}

describe('aiSdkGuards in generateText', () => {
  it("answers a repeat with the reflection, then gives the budget's final turn without tools, its words kept", async () => {
    const model = scripted([
      calling('get_user', { id: 'u_1' }),
      calling('get_user', { id: 'u_1' }),
      calling('get_user', { id: 'u_2' }),
      answering('Summary: u_1 and u_2 fetched.'),
    ]);
    let runs = 0;
    const { outcome, events, result } = await agent(
      model,
      { guards: { toolBudget: { maxToolCalls: 3 }, repeatFingerprint: true } },
      async ({ id }) => {
        runs += 1;
        return `{"id":"${id}"}`;
      },
    );
    expect(runs).toBe(2); // the repeat was answered, not run
    const repeatResult = result.steps[1]!.content.find((part) => part.type === 'tool-error');
    expect(repeatResult).toMatchObject({ type: 'tool-error' });
    expect(String((repeatResult as { error: unknown }).error)).toContain(REFLECTION_MESSAGE);
    const last = model.doGenerateCalls.at(-1)!;
    expect(last.toolChoice).toEqual({ type: 'none' });
    expect(textsOf(last).at(-1)).toMatch(/^Tool budget exhausted \(3 calls\)/);
    expect(outcome).toEqual({ kind: 'budget_exhausted', finalText: 'Summary: u_1 and u_2 fetched.', toolCalls: 3 });
    expect(events.map((event) => event.type)).toEqual(['agent.repeat.blocked', 'agent.budget.exhausted']);
  });

  it('ends the run escalated at a call of the stuck tool, offered beside the agent’s own', async () => {
    const model = scripted([
      calling(STUCK_TOOL_NAME, { summary: 's', attempted_approaches: ['a'], specific_question: 'q' }),
      answering('never asked'),
    ]);
    const { outcome } = await agent(model, { guards: 'article' });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doGenerateCalls[0]!.tools?.map((definition) => definition.name)).toEqual([
      'get_user',
      STUCK_TOOL_NAME,
    ]);
    expect(outcome).toMatchObject({ kind: 'escalated', payload: { specific_question: 'q' } });
  });

  it('retries an overloaded model call after a real (owed, awaited) wait, never blocking', async () => {
    const overloaded = new APICallError({
      message: 'Overloaded',
      url: 'https://api.anthropic.com/v1/messages',
      requestBodyValues: {},
      statusCode: 529,
      responseHeaders: {},
      responseBody: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      isRetryable: true,
    });
    const model = scripted([overloaded, answering('done')]);
    const waited: number[] = [];
    const { outcome, events } = await agent(model, {
      guards: { llmRecovery: { backoffMs: [1000], jitter: 0 } },
      clock: wallClock(async (ms) => void waited.push(ms)),
    });
    expect(outcome).toEqual({ kind: 'completed', finalText: 'done' });
    expect(waited).toEqual([1000]);
    expect(events.map((event) => event.type)).toEqual(['agent.model.retry']);
  });

  it('retries a transient failure of a read-only tool, and words a permanent one by its class', async () => {
    const model = scripted([calling('get_user', { id: 'u_1' }), calling('get_user', { id: 'u_9' }), answering('ok')]);
    const failures = [Object.assign(new Error('upstream 503'), { status: 503 })];
    const { result, events } = await agent(
      model,
      {
        guards: { errorClassification: { backoffMs: [0] } },
        readOnlyTools: ['get_user'],
        clock: wallClock(async () => {}),
      },
      async ({ id }) => {
        if (id === 'u_9') throw Object.assign(new Error('no user u_9'), { status: 404 });
        const failure = failures.shift();
        if (failure !== undefined) throw failure;
        return `{"id":"${id}"}`;
      },
    );
    expect(events.map((event) => event.type)).toEqual(['agent.tool.retry']);
    expect(result.steps[0]!.content.find((part) => part.type === 'tool-result')).toMatchObject({
      output: '{"id":"u_1"}',
    });
    const permanent = result.steps[1]!.content.find((part) => part.type === 'tool-error') as { error: Error };
    expect(permanent.error.message).toBe(
      'Error: Permanent failure: Not found (HTTP 404): no user u_9. Do not retry with the same arguments.',
    );
  });

  it('retries a cut-off JSON body of a read-only tool, and takes a plain-text answer as a success', async () => {
    const model = scripted([calling('get_user', { id: 'u_1' }), calling('get_user', { id: 'u_2' }), answering('ok')]);
    const answers = ['{"id":"u_1","na', '{"id":"u_1"}', 'User u_2 is Ada.'];
    let runs = 0;
    const { result, events } = await agent(
      model,
      {
        guards: { errorClassification: { backoffMs: [0] } },
        readOnlyTools: ['get_user'],
        clock: wallClock(async () => {}),
      },
      async () => answers[runs++]!,
    );
    expect(runs).toBe(3);
    expect(events.map((event) => event.type)).toEqual(['agent.tool.retry']);
    expect(result.steps[0]!.content.find((part) => part.type === 'tool-result')).toMatchObject({
      output: '{"id":"u_1"}',
    });
    expect(result.steps[1]!.content.find((part) => part.type === 'tool-result')).toMatchObject({
      output: 'User u_2 is Ada.',
    });
  });

  it('stops at generateText’s abortSignal: the aborted tool is not retried, and no model call follows', async () => {
    const model = scripted([calling('get_user', { id: 'u_1' }), answering('never')]);
    const controller = new AbortController();
    let runs = 0;
    const events: AgentEvent[] = [];
    const guards = aiSdkGuards({
      guards: { errorClassification: { backoffMs: [0] }, llmRecovery: true },
      model,
      tools: {
        get_user: tool({
          inputSchema: jsonSchema<{ id: string }>({ type: 'object' }),
          execute: async (): Promise<string> => {
            runs += 1;
            controller.abort();
            throw new DOMException('This operation was aborted', 'AbortError');
          },
        }),
      },
      readOnlyTools: ['get_user'],
      clock: wallClock(async () => {}),
      onEvent: (event) => events.push(event),
    });
    await expect(
      generateText({
        model: guards.model,
        tools: guards.tools,
        prepareStep: guards.prepareStep,
        stopWhen: [stepCountIs(25), guards.stopWhen],
        prompt: 'Fetch u_1.',
        maxRetries: 0,
        abortSignal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(runs).toBe(1);
    expect(events.map((event) => event.type)).not.toContain('agent.tool.retry');
    expect(events.map((event) => event.type)).not.toContain('agent.model.retry');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('refuses streamText with an error that names it and the docs, rather than streaming unguarded', async () => {
    const model = new MockLanguageModelV3({ modelId: 'claude-test' });
    const guards = aiSdkGuards({ guards: 'article', model, tools: {} });
    const errors: unknown[] = [];
    const result = streamText({ model: guards.model, prompt: 'hi', onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(String(errors[0])).toMatch(/streamText .*docs\/ai-sdk-middleware\.md/);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it('refuses a second generateText through the same guards: one aiSdkGuards per run', async () => {
    const model = scripted([answering('first'), answering('second')]);
    const guards = aiSdkGuards({ guards: { toolBudget: { maxToolCalls: 1 } }, model, tools: {} });
    const run = () =>
      generateText({ model: guards.model, prepareStep: guards.prepareStep, stopWhen: guards.stopWhen, prompt: 'hi' });
    expect((await run()).text).toBe('first');
    await expect(run()).rejects.toThrow(/one aiSdkGuards per run/);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('keeps your activeTools: prepareStep offers those and the guards’ tools, not every tool', async () => {
    const model = scripted([answering('done')]);
    const noop = tool({ inputSchema: jsonSchema<{ id: string }>({ type: 'object' }), execute: async () => '{}' });
    const guards = aiSdkGuards({
      guards: 'article',
      model,
      tools: { get_user: noop, delete_user: noop },
      activeTools: ['get_user'],
    });
    await generateText({
      model: guards.model,
      tools: guards.tools,
      activeTools: ['get_user'],
      prepareStep: guards.prepareStep,
      stopWhen: [stepCountIs(25), guards.stopWhen],
      prompt: 'hi',
    });
    expect(model.doGenerateCalls[0]!.tools?.map((definition) => definition.name)).toEqual([
      'get_user',
      STUCK_TOOL_NAME,
    ]);
  });

  it('keeps a loop-detection nudge in every later request, where it was said', async () => {
    const model = scripted([
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => calling('get_user', { id })),
      answering('done'),
    ]);
    const { events } = await agent(model, { guards: { loopDetection: true } }, async () => '{"results":[]}');
    expect(events.map((event) => event.type)).toEqual(['agent.loop.detected']);
    const nudged = model.doGenerateCalls.map((call) => textsOf(call).filter((text) => text.startsWith('Loop check')));
    expect(nudged.map((texts) => texts.length)).toEqual([0, 0, 0, 0, 1, 1, 1]);
    // Right after the fourth call's result, in the same user turn as our loop puts it.
    const last = model.doGenerateCalls.at(-1)!.prompt;
    const at = last.findIndex(
      (message) => message.role === 'user' && textsOf({ prompt: [message] } as never).length > 0 && message !== last[0],
    );
    expect(last[at - 1]).toMatchObject({ role: 'tool', content: [{ toolCallId: `c${ids - 2}` }] });
  });
});
