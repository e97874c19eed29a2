import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import { MODEL_FAULT_KINDS, scriptedModelFaults, type ModelFaultKind } from '../src/faults/model-faults.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import { FaultyModel } from '../src/model/faulty-model.js';
import { DEFAULT_MODEL_ID, type ModelClient, type ModelRequest } from '../src/model/model-client.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import { simulatedFetch } from '../src/model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../src/model/simulated/simulated-model.js';
import { requestTokens } from '../src/model/token-estimate.js';
import { ANTHROPIC_ERROR_CLASS, rejectionOf, visibleError } from './sdk-errors.js';
import { loadScenario } from '../src/scenarios/loader.js';
import { inProcessModel, sdkModel } from '../src/run/model-source.js';

const scenario = loadScenario('fetch-transform-write');
const streamKey = { sweepSeed: 0, scenario: scenario.id, runSeed: 7 };

function simulated(): SimulatedModel {
  return new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey });
}

/** Every ModelClient the loop can be given, built fresh for each test. */
const clients: ReadonlyArray<readonly [string, () => ModelClient]> = [
  ['simulated in-process', simulated],
  [
    'simulated in-process behind the fault layer, no faults',
    () => new FaultyModel(simulated(), scriptedModelFaults([])),
  ],
  [
    'simulated through the Anthropic SDK',
    () =>
      new AnthropicModelClient({
        apiKey: 'sk-test',
        fetch: simulatedFetch(simulated()),
        baseURL: 'http://simulated.invalid',
      }),
  ],
  [
    'scripted',
    () =>
      new ScriptedModel([
        { text: 'Fetching.', calls: [{ name: 'get_user', input: { user_id: 'u_1042' } }] },
        { text: 'Done.' },
      ]),
  ],
];

const firstRequest: ModelRequest = {
  model: DEFAULT_MODEL_ID,
  max_tokens: 1024,
  system: scenario.system,
  tools: scenario.tools.map((tool) => tool.definition),
  messages: [{ role: 'user', content: scenario.prompt }],
};

describe.each(clients)('ModelClient contract: %s', (_name, make) => {
  it('answers in the Messages shape, echoing the model and counting tokens with the shared estimator', async () => {
    const reply = await make().create(firstRequest);
    expect(reply).toMatchObject({ type: 'message', role: 'assistant', model: DEFAULT_MODEL_ID, stop_sequence: null });
    expect(reply.usage.input_tokens).toBe(requestTokens(firstRequest));
    expect(reply.usage.output_tokens).toBeGreaterThan(0);
  });

  it('sets stop_reason to tool_use exactly when it calls a tool, with well-formed tool_use blocks', async () => {
    const reply = await make().create(firstRequest);
    const uses = reply.content.filter((block) => block.type === 'tool_use');
    expect(reply.stop_reason).toBe(uses.length > 0 ? 'tool_use' : 'end_turn');
    for (const use of uses) {
      expect(use.id).toMatch(/^toolu_/);
      expect(scenario.tools.map((tool) => tool.definition.name)).toContain(use.name);
      expect(typeof use.input).toBe('object');
    }
  });

  it('calls the first plan step on the initial prompt', async () => {
    const reply = await make().create(firstRequest);
    const use = reply.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ name: 'get_user', input: { user_id: 'u_1042' } });
  });
});

describe('the simulated model is the same in-process and through the SDK', () => {
  const arms = ['none', 'article'].map((name) => ARM_PRESETS.get(name) as Arm);

  it('gives identical transcripts and records for the same seeds', async () => {
    for (const arm of arms) {
      for (let seed = 1; seed <= 25; seed++) {
        const direct = await runOne({ sweepSeed: 0, scenario, arm, seed, model: inProcessModel() });
        const viaSdk = await runOne({ sweepSeed: 0, scenario, arm, seed, model: sdkModel() });
        const transcript = (messages: readonly MessageParam[]) => JSON.stringify(messages);
        expect(transcript(viaSdk.result.messages)).toBe(transcript(direct.result.messages));
        expect({ ...viaSdk.record, model: 'x' }).toEqual({ ...direct.record, model: 'x' });
      }
    }
  });

  it('answers a non-Messages path with a 404 the SDK raises as its own NotFoundError', async () => {
    const fetch = simulatedFetch(simulated());
    const response = await fetch('http://simulated.invalid/v1/complete', { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});

describe('model faults are the same errors in-process and through the real SDK', () => {
  const profile = { retryAfterMs: 12_000, timeoutMs: 600_000 };
  const inProcess = (faults: readonly (ModelFaultKind | null)[]) =>
    new FaultyModel(simulated(), scriptedModelFaults(faults, profile));
  const viaSdk = (faults: readonly (ModelFaultKind | null)[]) =>
    new AnthropicModelClient({
      apiKey: 'sk-test',
      fetch: simulatedFetch(simulated(), scriptedModelFaults(faults, profile)),
      baseURL: 'http://simulated.invalid',
    });
  const rejection = (client: ModelClient, request: ModelRequest = firstRequest) => rejectionOf(client, request);
  const visible = visibleError;
  const expectedClass = ANTHROPIC_ERROR_CLASS;

  it.each(MODEL_FAULT_KINDS.filter((kind) => kind !== 'stream_cut'))(
    '%s raises the same SDK error class, status, body and headers both ways',
    async (kind) => {
      const direct = visible(await rejection(inProcess([kind])));
      const sdk = visible(await rejection(viaSdk([kind])));
      expect(sdk).toEqual(direct);
      expect(sdk.class).toBe(expectedClass[kind]);
      if (kind === 'rate_limit') expect(sdk.retryAfter).toBe('12');
    },
  );

  it('refuses an invalid request with the same BadRequestError both ways, before the model sees it', async () => {
    const orphan: ModelRequest = {
      ...firstRequest,
      messages: [
        ...firstRequest.messages,
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: '{}' }] },
      ],
    };
    const direct = visible(await rejection(inProcess([]), orphan));
    expect(visible(await rejection(viaSdk([]), orphan))).toEqual(direct);
    expect(direct).toMatchObject({
      class: 'BadRequestError',
      status: 400,
      type: 'invalid_request_error',
      classified: 'other',
    });
    expect(direct.apiMessage).toMatch(/unexpected `tool_use_id` found in `tool_result` blocks: toolu_x/);
  });

  it('gives identical transcripts and records on the model-fault scenarios, for every recovery arm', async () => {
    const seen = new Set<string>();
    for (const id of ['model-outage', 'model-rate-limit-storm']) {
      const faulted = loadScenario(id);
      for (const arm of ['none', 'recover', 'all'].map((name) => ARM_PRESETS.get(name) as Arm)) {
        for (let seed = 1; seed <= 15; seed++) {
          const direct = await runOne({ sweepSeed: 0, scenario: faulted, arm, seed, model: inProcessModel() });
          const sdk = await runOne({ sweepSeed: 0, scenario: faulted, arm, seed, model: sdkModel() });
          expect(JSON.stringify(sdk.result.messages), `${id} ${arm.name} ${seed}`).toBe(
            JSON.stringify(direct.result.messages),
          );
          expect({ ...sdk.record, model: 'x' }).toEqual({ ...direct.record, model: 'x' });
          if (direct.record.events['agent.model.retry'] > 0) seen.add('retry');
          if (direct.record.events['agent.model.fallback'] > 0) seen.add('fallback');
          if (direct.record.outcome === 'failed') seen.add('failed');
        }
      }
    }
    // The seeds cover every path: retries, a fallback, and runs a model fault ended.
    expect([...seen].sort()).toEqual(['failed', 'fallback', 'retry']);
  });
});
