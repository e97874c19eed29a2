import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { ChatAnthropic } from '@langchain/anthropic';
import { APICallError, generateText, jsonSchema, type LanguageModel, streamText, tool, type ToolSet } from 'ai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { simulatedAgentEndpoint } from '../src/run/simulated-endpoint.js';
import { scriptedModelFaults, type ModelFaultKind } from '../src/faults/model-faults.js';
import { loadScenario } from '../src/scenarios/loader.js';

/*
 * The simulated endpoints as the real clients read them: each client a user's agent may
 * bring parses a plain reply, a streamed one and an error from the simulated Messages and
 * Chat Completions endpoints (the ones an agent's `fetch` reaches) exactly as it parses the
 * real APIs'. Seed 1 of fetch-transform-write opens with a text block beside a tool call,
 * so every reply below carries both kinds of block.
 */

const scenario = loadScenario('fetch-transform-write');
const key = { sweepSeed: 0, scenario: scenario.id, runSeed: 1 };
const endpoint = (faults: readonly (ModelFaultKind | null)[] = []) =>
  simulatedAgentEndpoint(scenario, key, scriptedModelFaults(faults, { retryAfterMs: 2000, timeoutMs: 1000 }));
const { modelId } = endpoint();
const API_KEY = 'sk-simulated';
const definitions = scenario.tools.map((entry) => entry.definition);
const OPENING = /^Next is the 'fetch' step/;

/** The scenario's tools for the AI SDK, without `execute`: one step, the calls handed back. */
const aiTools: ToolSet = Object.fromEntries(
  definitions.map((definition) => [
    definition.name,
    tool({
      description: definition.description ?? '',
      inputSchema: jsonSchema(definition.input_schema as Parameters<typeof jsonSchema>[0]),
    }),
  ]),
);

const openaiTools = definitions.map((definition) => ({
  type: 'function' as const,
  function: {
    name: definition.name,
    description: definition.description ?? '',
    parameters: definition.input_schema as Record<string, unknown>,
  },
}));

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('the simulated Messages endpoint on the wire', () => {
  const post = (body: Record<string, unknown>) =>
    endpoint().fetch(`${endpoint().baseURL.anthropic}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({
        model: modelId,
        max_tokens: 1024,
        system: scenario.system,
        tools: definitions,
        messages: [{ role: 'user', content: scenario.prompt }],
        ...body,
      }),
    });

  it('leaves `citations` out of a text block that cites nothing, as the API does', async () => {
    const body = (await (await post({})).json()) as { content: Array<Record<string, unknown>> };
    const text = body.content.find((block) => block.type === 'text');
    expect(text?.text).toMatch(OPENING);
    expect(text).not.toHaveProperty('citations');
  });

  it('starts a streamed text block without `citations`, as the API does', async () => {
    const sse = await (await post({ stream: true })).text();
    const start = sse
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; content_block?: Record<string, unknown> })
      .find((event) => event.type === 'content_block_start' && event.content_block?.type === 'text');
    expect(start?.content_block).toEqual({ type: 'text', text: '' });
  });
});

describe('@anthropic-ai/sdk against the simulated Messages endpoint', () => {
  const client = (faults?: readonly (ModelFaultKind | null)[]) => {
    const { fetch, baseURL } = endpoint(faults);
    return new Anthropic({ apiKey: API_KEY, baseURL: baseURL.anthropic, fetch, maxRetries: 0 });
  };
  const params = {
    model: modelId,
    max_tokens: 1024,
    system: scenario.system,
    tools: definitions,
    messages: [{ role: 'user' as const, content: scenario.prompt }],
  };

  it('messages.create reads the text and the tool call', async () => {
    const reply = await client().messages.create(params);
    expect(reply.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
    expect(reply.content[0]?.type === 'text' && reply.content[0].text).toMatch(OPENING);
    expect(reply.stop_reason).toBe('tool_use');
  });

  it('messages.stream builds the same message', async () => {
    const plain = await client().messages.create(params);
    const { parsed_output: _, ...streamed } = await client().messages.stream(params).finalMessage();
    expect(streamed).toEqual(plain);
  });

  it.each([
    ['rate_limit', Anthropic.RateLimitError, 429],
    ['overloaded', Anthropic.InternalServerError, 529],
    ['server_error', Anthropic.InternalServerError, 500],
  ] as const)('a %s fault is the SDK error class for its status', async (fault, errorClass, status) => {
    const error = await rejection(() => client([fault]).messages.create(params));
    expect(error).toBeInstanceOf(errorClass);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(status);
  });
});

type Faults = readonly (ModelFaultKind | null)[];

/**
 * The AI SDK's contract with a simulated endpoint, for either provider: text and tool call,
 * plain and streamed, and each fault an APICallError with its status and retryability.
 */
function describeAiSdk(
  title: string,
  model: (faults?: Faults) => LanguageModel,
  faults: readonly (readonly [ModelFaultKind, number, boolean])[],
) {
  describe(title, () => {
    const call = { system: scenario.system, prompt: scenario.prompt, tools: aiTools, maxRetries: 0 };

    it('generateText reads the text and the tool call', async () => {
      const result = await generateText({ model: model(), ...call });
      expect(result.text).toMatch(OPENING);
      expect(result.toolCalls.map((toolCall) => toolCall.toolName)).toEqual(['get_user']);
      expect(result.finishReason).toBe('tool-calls');
      expect(result.usage.inputTokens).toBeGreaterThan(0);
    });

    it('streamText reads the same text, tool call and usage', async () => {
      const errors: unknown[] = [];
      const result = streamText({ model: model(), ...call, onError: ({ error }) => void errors.push(error) });
      expect(await result.text).toMatch(OPENING);
      expect((await result.toolCalls).map((toolCall) => toolCall.toolName)).toEqual(['get_user']);
      expect((await result.usage).inputTokens).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    });

    it.each(faults)('a %s fault is an APICallError with status %i', async (fault, status, retryable) => {
      const error = await rejection(() => generateText({ model: model([fault]), ...call }));
      expect(APICallError.isInstance(error), String(error)).toBe(true);
      expect((error as APICallError).statusCode).toBe(status);
      expect((error as APICallError).isRetryable).toBe(retryable);
    });
  });
}

describeAiSdk(
  '@ai-sdk/anthropic against the simulated Messages endpoint',
  (faults) => {
    const { fetch, baseURL } = endpoint(faults);
    return createAnthropic({ apiKey: API_KEY, baseURL: `${baseURL.anthropic}/v1`, fetch })(modelId);
  },
  [
    ['rate_limit', 429, true],
    ['overloaded', 529, true],
    ['unauthorized', 401, false],
  ],
);

describe("LangChain's ChatAnthropic against the simulated Messages endpoint", () => {
  const chat = (faults?: readonly (ModelFaultKind | null)[]) => {
    const { fetch, baseURL } = endpoint(faults);
    return new ChatAnthropic({
      model: modelId,
      apiKey: API_KEY,
      anthropicApiUrl: baseURL.anthropic,
      clientOptions: { fetch },
      maxRetries: 0,
    }).bindTools(definitions);
  };
  const messages = [
    { role: 'system', content: scenario.system },
    { role: 'user', content: scenario.prompt },
  ];

  it('invoke reads the text and the tool call', async () => {
    const reply = await chat().invoke(messages);
    expect(reply.text).toMatch(OPENING);
    expect(reply.tool_calls?.map((toolCall) => toolCall.name)).toEqual(['get_user']);
  });

  it('stream reads the same text and tool call', async () => {
    let whole: Awaited<ReturnType<ReturnType<typeof chat>['invoke']>> | undefined;
    for await (const chunk of await chat().stream(messages)) whole = whole === undefined ? chunk : whole.concat(chunk);
    expect(whole?.text).toMatch(OPENING);
    expect(whole?.tool_calls?.map((toolCall) => toolCall.name)).toEqual(['get_user']);
  });

  it('a rate_limit fault rejects with the status', async () => {
    const error = await rejection(() => chat(['rate_limit']).invoke(messages));
    expect((error as { status?: number }).status, String(error)).toBe(429);
  });
});

describe('openai against the simulated Chat Completions endpoint', () => {
  const client = (faults?: readonly (ModelFaultKind | null)[]) => {
    const { fetch, baseURL } = endpoint(faults);
    return new OpenAI({ apiKey: API_KEY, baseURL: baseURL.openai, fetch, maxRetries: 0 });
  };
  const params = {
    model: modelId,
    tools: openaiTools,
    messages: [
      { role: 'system' as const, content: scenario.system },
      { role: 'user' as const, content: scenario.prompt },
    ],
  };

  it('chat.completions.create reads the text and the tool call', async () => {
    const completion = await client().chat.completions.create(params);
    const message = completion.choices[0]?.message;
    expect(message?.content).toMatch(OPENING);
    expect(message?.tool_calls?.map((call) => (call.type === 'function' ? call.function.name : call.type))).toEqual([
      'get_user',
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('chat.completions.stream builds the same completion, usage included', async () => {
    const plain = await client().chat.completions.create(params);
    const streamed = await client()
      .chat.completions.stream({ ...params, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe(plain.choices[0]?.message.content);
    expect(streamed.choices[0]?.message.tool_calls).toEqual(plain.choices[0]?.message.tool_calls);
    expect(streamed.choices[0]?.finish_reason).toBe('tool_calls');
    expect(streamed.usage).toEqual(plain.usage);
  });

  it.each([
    ['rate_limit', OpenAI.RateLimitError, 429],
    ['overloaded', OpenAI.InternalServerError, 503],
    ['server_error', OpenAI.InternalServerError, 500],
  ] as const)('a %s fault is the client error class for its status', async (fault, errorClass, status) => {
    const error = await rejection(() => client([fault]).chat.completions.create(params));
    expect(error).toBeInstanceOf(errorClass);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
  });
});

describeAiSdk(
  '@ai-sdk/openai against the simulated Chat Completions endpoint',
  (faults) => {
    const { fetch, baseURL } = endpoint(faults);
    return createOpenAI({ apiKey: API_KEY, baseURL: baseURL.openai, fetch }).chat(modelId);
  },
  [['rate_limit', 429, true]],
);
