import Anthropic from '@anthropic-ai/sdk';
import { APIError } from '@anthropic-ai/sdk/core/error';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import { createScenarioToolHost } from '../src/run/scenario-tool-host.js';
import { VirtualClock } from '../src/clock/virtual-clock.js';
import { scriptedModelFaults } from '../src/faults/model-faults.js';
import { ModelServer } from '../src/live/model-server.js';
import { classifyModelError, describeModelError } from '../src/loop/model-errors.js';
import { readStreamedReply } from '../src/loop/streamed-reply.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import { FaultyModel } from '../src/model/faulty-model.js';
import { DEFAULT_MODEL_ID, type ModelClient, type ModelRequest } from '../src/model/model-client.js';
import { simulatedFetch } from '../src/model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../src/model/simulated/simulated-model.js';
import { loadScenario } from '../src/scenarios/loader.js';
import { wireMessage } from '../src/model/text-citations.js';
import { createWorld } from '../src/tools/world.js';
import { visibleError } from './sdk-errors.js';
import { clientModel } from '../src/run/model-source.js';

const scenario = loadScenario('research-8-sources');
const key = { sweepSeed: 0, scenario: scenario.id, runSeed: 1 };
const model = () => new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
const request: ModelRequest = {
  model: DEFAULT_MODEL_ID,
  max_tokens: 1024,
  system: scenario.system,
  tools: [...createScenarioToolHost(scenario, createWorld(scenario.world), key).definitions],
  messages: [{ role: 'user', content: scenario.prompt }],
};
const BASE = 'http://simulated.invalid';

/** The SSE body the endpoint sends for `request`, as frames of `event:` name and parsed data. */
async function frames(
  fetch: typeof globalThis.fetch,
): Promise<Array<{ event: string; data: { type: string; [key: string]: unknown } }>> {
  const response = await fetch(`${BASE}/v1/messages`, {
    method: 'POST',
    body: JSON.stringify({ ...request, stream: true }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  return (await response.text())
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const [event = '', data = ''] = frame.split('\n');
      return {
        event: event.replace(/^event: /, ''),
        data: JSON.parse(data.replace(/^data: /, '')) as { type: string },
      };
    });
}

async function collect(
  events: AsyncIterable<RawMessageStreamEvent>,
): Promise<{ events: RawMessageStreamEvent[]; error: unknown }> {
  const seen: RawMessageStreamEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { events: seen, error };
  }
  return { events: seen, error: null };
}

describe('streamed replies: SSE as the Messages API sends it, read by the real SDK', () => {
  const reply = model().respond(request);

  it('frames the reply as the API does: start, ping, deltas in pieces, stop, usage last', async () => {
    // The first turn of this scenario searches several sources at once: text and tool calls.
    expect(reply.content.map((block) => block.type)).toEqual(['text', 'tool_use', 'tool_use', 'tool_use', 'tool_use']);
    const sent = await frames(simulatedFetch(model()));
    for (const { event, data } of sent) expect(data.type).toBe(event);
    expect(sent.slice(0, 3).map((frame) => frame.event)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(sent.slice(-2).map((frame) => frame.event)).toEqual(['message_delta', 'message_stop']);
    const start = sent[0]!.data as unknown as {
      message: { content: unknown[]; stop_reason: unknown; usage: { input_tokens: number } };
    };
    expect(start.message.content).toEqual([]);
    expect(start.message.stop_reason).toBeNull();
    expect(start.message.usage.input_tokens).toBe(reply.usage.input_tokens);
    const delta = sent.at(-2)!.data as unknown as { delta: { stop_reason: string }; usage: { output_tokens: number } };
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(delta.usage.output_tokens).toBe(reply.usage.output_tokens);
    // Each tool call's arguments arrive as several input_json_delta pieces that join to its JSON.
    reply.content.forEach((block, index) => {
      const pieces = sent
        .filter(
          (frame) =>
            frame.event === 'content_block_delta' && (frame.data as unknown as { index: number }).index === index,
        )
        .map(
          (frame) => (frame.data as unknown as { delta: { type: string; text?: string; partial_json?: string } }).delta,
        );
      if (block.type === 'tool_use') {
        expect(pieces.length).toBeGreaterThanOrEqual(3);
        expect(pieces.every((piece) => piece.type === 'input_json_delta')).toBe(true);
        expect(pieces.map((piece) => piece.partial_json).join('')).toBe(JSON.stringify(block.input));
      } else if (block.type === 'text') {
        expect(pieces.map((piece) => piece.text).join('')).toBe(block.text);
      }
    });
  });

  it("the SDK's own MessageStream builds the same Message as a non-streaming call, and streams the text", async () => {
    const client = new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: BASE,
      maxRetries: 0,
      fetch: simulatedFetch(model()),
    });
    const stream = client.messages.stream(request);
    let text = '';
    stream.on('text', (delta) => (text += delta));
    // The SDK's helper adds its own `parsed_output` (structured outputs); the rest is the API's Message.
    // The wire leaves out a text block's empty `citations`, as the API does.
    const { parsed_output: _, ...final } = await stream.finalMessage();
    expect(final).toEqual(wireMessage(reply));
    expect(text).toBe(reply.content[0]?.type === 'text' ? reply.content[0].text : null);
  });

  it('reads the same Message through create({ stream: true }), in-process and over a socket, field for field', async () => {
    const server = new ModelServer({ scenario, clock: new VirtualClock() });
    const base = await server.listen();
    try {
      const clients: ModelClient[] = [
        model(),
        new AnthropicModelClient({ apiKey: 'sk-ant-test', baseURL: BASE, fetch: simulatedFetch(model()) }),
        new AnthropicModelClient({ apiKey: 'sk-ant-test', baseURL: `${base}/runs/1` }),
      ];
      for (const client of clients) {
        const { message, timing } = await readStreamedReply(client, request, {}, undefined);
        expect(JSON.stringify(message)).toBe(JSON.stringify(reply));
        // The last block ends with the reply; earlier ones had output still to come.
        expect(timing.tokensAfterBlock.at(-1)).toBe(0);
        expect(timing.tokensAfterBlock[1]).toBeGreaterThan(timing.tokensAfterBlock[2]!);
      }
    } finally {
      await server.close();
    }
  });

  it('a stream cut sends part of the reply, then an error event the SDK raises as its APIError, recovered as transient', async () => {
    const sent = await frames(simulatedFetch(model(), scriptedModelFaults(['stream_cut'])));
    expect(sent.at(-1)).toEqual({
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    expect(sent.some((frame) => frame.event === 'message_stop' || frame.event === 'message_delta')).toBe(false);

    const overSdk = new AnthropicModelClient({
      apiKey: 'sk-ant-test',
      baseURL: BASE,
      fetch: simulatedFetch(model(), scriptedModelFaults(['stream_cut'])),
    });
    const inProcess = new FaultyModel(model(), scriptedModelFaults(['stream_cut']));
    const [wire, local] = await Promise.all([collect(overSdk.stream(request)), collect(inProcess.stream(request))]);
    expect(wire.events.length).toBeGreaterThan(1);
    expect(JSON.stringify(local.events)).toBe(JSON.stringify(wire.events));
    expect(wire.error).toBeInstanceOf(APIError);
    const { requestID: _wire, ...seen } = visibleError(wire.error);
    const { requestID: _local, ...seenLocal } = visibleError(local.error);
    expect(seen).toEqual(seenLocal);
    expect(seen).toMatchObject({
      class: 'APIError',
      status: undefined,
      type: 'overloaded_error',
      apiMessage: 'Overloaded',
      classified: 'transient',
    });
    expect(describeModelError(wire.error)).toBe('APIError (stream error overloaded_error): Overloaded');
    expect(classifyModelError(local.error)).toBe('transient');
  });

  it('a non-streaming call that draws a stream cut goes through: only a stream can be cut', async () => {
    const faults = scriptedModelFaults(['stream_cut']);
    const client = new AnthropicModelClient({
      apiKey: 'sk-ant-test',
      baseURL: BASE,
      fetch: simulatedFetch(model(), faults),
    });
    expect(await client.create(request)).toEqual(reply);
    expect(await new FaultyModel(model(), scriptedModelFaults(['stream_cut'])).create(request)).toEqual(reply);
  });
});

describe('streamed runs over a socket', () => {
  const reference = loadScenario('fetch-transform-write');
  const article = ARM_PRESETS.get('article') as Arm;
  const server = new ModelServer({ scenario: reference, clock: new VirtualClock() });
  let base = '';
  beforeAll(async () => {
    base = await server.listen();
  });
  afterAll(async () => {
    await server.close();
  });

  it('give the same records as streamed runs in-process', async () => {
    for (const seed of [1, 2]) {
      const client = new AnthropicModelClient({
        apiKey: 'sk-ant-local',
        baseURL: `${base}/runs/${seed}`,
        name: 'simulated-http',
      });
      const overHttp = await runOne({
        sweepSeed: 0,
        scenario: reference,
        arm: article,
        seed,
        stream: true,
        model: clientModel(client, DEFAULT_MODEL_ID),
      });
      const inProcess = await runOne({ sweepSeed: 0, scenario: reference, arm: article, seed, stream: true });
      expect(overHttp.record.model).toBe('simulated-http+stream');
      expect({ ...overHttp.record, model: '' }).toEqual({ ...inProcess.record, model: '' });
    }
  });
});
