import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import { MalformedArguments, MALFORMED_ARGUMENT_KINDS } from '../src/faults/malformed-arguments.js';
import { MODEL_FAULT_KINDS, scriptedModelFaults, type ModelFaultKind } from '../src/faults/model-faults.js';
import { repairArguments } from '../src/loop/guards/argument-repair.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import { DEFAULT_MODEL_ID, type ModelClient, type ModelRequest } from '../src/model/model-client.js';
import { simulatedChatFetch } from '../src/model/openai/chat-endpoint.js';
import { OpenAICompatibleModelClient } from '../src/model/openai/openai-compatible-client.js';
import { SimulatedChatModel, type SimulatedChatOptions } from '../src/model/openai/simulated-chat.js';
import { simulatedFetch } from '../src/model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../src/model/simulated/simulated-model.js';
import { requestTokens } from '../src/model/token-estimate.js';
import { ANTHROPIC_ERROR_CLASS, rejectionOf, visibleError } from './sdk-errors.js';
import { loadScenario, type Scenario } from '../src/scenarios/loader.js';
import { inProcessModel, sdkModel } from '../src/run/model-source.js';

const scenario = loadScenario('malformed-args');
const streamKey = { sweepSeed: 0, scenario: scenario.id, runSeed: 7 };
const simulated = () => new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey });
const viaClient = (options: SimulatedChatOptions) =>
  new OpenAICompatibleModelClient({
    apiKey: 'sk-test',
    fetch: simulatedChatFetch(options),
    baseURL: 'http://simulated.invalid/v1',
  });

const firstRequest: ModelRequest = {
  model: DEFAULT_MODEL_ID,
  max_tokens: 1024,
  system: scenario.system,
  tools: scenario.tools.map((tool) => tool.definition),
  messages: [{ role: 'user', content: scenario.prompt }],
};

const clients: ReadonlyArray<readonly [string, () => ModelClient]> = [
  ['in-process', () => new SimulatedChatModel({ model: simulated() })],
  ['through the openai client', () => viaClient({ model: simulated() })],
];

describe.each(clients)('OpenAI-compatible edge contract: %s', (_name, make) => {
  it('answers in the Messages shape with the shared token estimate of the request', async () => {
    const reply = await make().create(firstRequest);
    expect(reply).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: DEFAULT_MODEL_ID,
      stop_reason: 'tool_use',
      stop_sequence: null,
    });
    expect(reply.usage.input_tokens).toBe(requestTokens(firstRequest));
    expect(reply.usage.output_tokens).toBeGreaterThan(0);
  });

  it('hands over the tool arguments as the raw text the model wrote, never parsed', async () => {
    const reply = await make().create(firstRequest);
    const use = reply.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_order', input: '{"order_id":"o_5120"}' });
  });
});

describe('the OpenAI-compatible edge is the same in-process and through the openai client', () => {
  const arms = ['none', 'repair', 'all'].map((name) => ARM_PRESETS.get(name) as Arm);

  it('gives identical transcripts and records on malformed-args, for the seeds and arms tried', async () => {
    const strategies = new Set<string>();
    for (const arm of arms) {
      for (let seed = 1; seed <= 20; seed++) {
        const direct = await runOne({ sweepSeed: 0, scenario, arm, seed, model: inProcessModel() });
        const sdk = await runOne({ sweepSeed: 0, scenario, arm, seed, model: sdkModel() });
        expect(JSON.stringify(sdk.result.messages), `${arm.name} ${seed}`).toBe(JSON.stringify(direct.result.messages));
        expect(direct.record.model).toBe('simulated-openai');
        expect(sdk.record.model).toBe('simulated-openai-sdk');
        expect({ ...sdk.record, model: 'x' }).toEqual({ ...direct.record, model: 'x' });
        for (const message of direct.result.messages) {
          if (message.role !== 'assistant' || typeof message.content === 'string') continue;
          for (const block of message.content)
            if (block.type === 'tool_use' && typeof block.input === 'string')
              strategies.add(repairArguments(block.input).ok ? 'read' : 'unreadable');
        }
      }
    }
    // The seeds include calls the repair reads and cut-off ones it refuses.
    expect([...strategies].sort()).toEqual(['read', 'unreadable']);
  });

  it('gives identical runs with model faults at the edge, retries and fallbacks included', async () => {
    const outage = loadScenario('model-outage');
    const faulted: Scenario = {
      ...outage,
      api: 'openai-chat',
      replyFaults: { malformed_arguments: { fenced: 0.2, truncated: 0.1 } },
    };
    const seen = new Set<string>();
    for (const arm of ['none', 'recover'].map((name) => ARM_PRESETS.get(name) as Arm)) {
      for (let seed = 1; seed <= 15; seed++) {
        const direct = await runOne({ sweepSeed: 0, scenario: faulted, arm, seed, model: inProcessModel() });
        const sdk = await runOne({ sweepSeed: 0, scenario: faulted, arm, seed, model: sdkModel() });
        expect(JSON.stringify(sdk.result.messages), `${arm.name} ${seed}`).toBe(JSON.stringify(direct.result.messages));
        expect({ ...sdk.record, model: 'x' }).toEqual({ ...direct.record, model: 'x' });
        if (direct.record.events['agent.model.retry'] > 0) seen.add('retry');
        if (direct.record.events['agent.model.fallback'] > 0) seen.add('fallback');
        if (direct.record.outcome === 'failed') seen.add('failed');
      }
    }
    expect([...seen].sort()).toEqual(['failed', 'fallback', 'retry']);
  });
});

describe('model faults at the edge are OpenAI HTTP errors, raised as Anthropic SDK errors both ways', () => {
  const profile = { retryAfterMs: 12_000, timeoutMs: 600_000 };
  const inProcess = (faults: readonly (ModelFaultKind | null)[]) =>
    new SimulatedChatModel({ model: simulated(), faults: scriptedModelFaults(faults, profile) });
  const sdk = (faults: readonly (ModelFaultKind | null)[]) =>
    viaClient({ model: simulated(), faults: scriptedModelFaults(faults, profile) });
  const anthropicSdk = (faults: readonly (ModelFaultKind | null)[]) =>
    new AnthropicModelClient({
      apiKey: 'sk-test',
      fetch: simulatedFetch(simulated(), scriptedModelFaults(faults, profile)),
      baseURL: 'http://simulated.invalid',
    });
  const rejection = (client: ModelClient, request: ModelRequest = firstRequest) => rejectionOf(client, request);
  const visible = visibleError;
  // OpenAI has no 529: the edge answers an overload as 503.
  const expectedClass = { ...ANTHROPIC_ERROR_CLASS, overloaded: 'ServiceUnavailableError' };

  it.each(MODEL_FAULT_KINDS.filter((kind) => kind !== 'stream_cut'))(
    '%s: the same error both ways, classified as over the Messages API',
    async (kind) => {
      const direct = visible(await rejection(inProcess([kind])));
      const viaSdk = visible(await rejection(sdk([kind])));
      expect(viaSdk).toEqual(direct);
      expect(direct.class).toBe(expectedClass[kind]);
      // Recovery reads the edge's errors as it reads the Anthropic API's.
      expect(direct.classified).toBe(visible(await rejection(anthropicSdk([kind]))).classified);
      if (kind === 'rate_limit') expect(direct.retryAfter).toBe('12');
      if (kind !== 'connection_error' && kind !== 'timeout') expect(direct.requestID).toBe('req_sim_error');
    },
  );

  it('refuses an invalid request with the same BadRequestError both ways', async () => {
    const orphan: ModelRequest = {
      ...firstRequest,
      messages: [
        ...firstRequest.messages,
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: '{}' }] },
      ],
    };
    const direct = visible(await rejection(inProcess([]), orphan));
    expect(visible(await rejection(sdk([]), orphan))).toEqual(direct);
    expect(direct).toMatchObject({
      class: 'BadRequestError',
      status: 400,
      type: 'invalid_request_error',
      classified: 'other',
    });
    expect(direct.apiMessage).toMatch(/unexpected `tool_use_id` found in `tool_result` blocks: toolu_x/);
  });
});

describe('malformed arguments through the real client', () => {
  it('arrive as the text the endpoint wrote, and each kind but a cut-off one is read back by the repair guard', async () => {
    for (const kind of MALFORMED_ARGUMENT_KINDS) {
      const malformed = new MalformedArguments({ [kind]: 1 }, streamKey);
      const direct = await new SimulatedChatModel({ model: simulated(), malformed }).create(firstRequest);
      const reply = await viaClient({ model: simulated(), malformed }).create(firstRequest);
      expect(reply.content).toEqual(direct.content);
      const use = reply.content.find((block) => block.type === 'tool_use');
      if (use?.type !== 'tool_use' || typeof use.input !== 'string')
        throw new Error('expected a tool call with text arguments');
      expect(use.input).not.toBe('{"order_id":"o_5120"}');
      const read = repairArguments(use.input);
      if (kind === 'truncated') expect(read.ok).toBe(false);
      else expect(read).toMatchObject({ ok: true, value: { order_id: 'o_5120' } });
    }
  });
});
