import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/loader.js';
import { simulatedFetch } from './fetch-endpoint.js';
import { SimulatedModel } from './simulated-model.js';

const scenario = loadScenario('lookup-readonly');
const model = () =>
  new SimulatedModel({
    persona: scenario.persona,
    plan: scenario.plan,
    streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 3 },
  });

describe('message threads at the simulated endpoint', () => {
  it('a tool runner on threads sends only deltas, and gets the replies an unthreaded runner gets', async () => {
    const transcripts: Array<Array<{ thread: unknown; messages: number; replies: string[] }>> = [];
    for (const thread of [undefined, false] as const) {
      const endpoint = simulatedFetch(model());
      const seen: Array<{ thread: unknown; messages: number; replies: string[] }> = [];
      const fetch: typeof globalThis.fetch = async (input, init) => {
        const body = JSON.parse(String(init?.body)) as { thread?: unknown; messages: unknown[] };
        const response = await endpoint(input, init);
        const reply = (await response.clone().json()) as { content: Array<{ type: string; name?: string }> };
        seen.push({
          thread: body.thread ?? null,
          messages: body.messages.length,
          replies: reply.content.map((block) => block.name ?? block.type),
        });
        return response;
      };
      const client = new Anthropic({ apiKey: 'sk-test', baseURL: 'http://simulated.invalid', fetch, maxRetries: 0 });
      const tools = scenario.tools.map((spec) =>
        betaTool({
          name: spec.definition.name,
          description: spec.definition.description!,
          inputSchema: spec.definition.input_schema as never,
          run: async () => '{"id":"o_1001","status":"shipped"}',
        }),
      );
      await client.beta.messages
        .toolRunner({
          model: 'claude-sonnet-5-5',
          max_tokens: 1024,
          system: scenario.system,
          messages: [{ role: 'user', content: scenario.prompt }],
          tools,
          max_iterations: 4,
          ...(thread === false ? { thread } : {}),
        })
        .runUntilDone();
      transcripts.push(seen);
    }
    const [threaded, unthreaded] = transcripts as [(typeof transcripts)[number], (typeof transcripts)[number]];
    expect(threaded[0]!.thread).toEqual({ type: 'create' });
    expect(threaded[1]!.thread).toMatchObject({ type: 'continue' });
    expect(threaded.slice(1).every((turn) => turn.messages === 1)).toBe(true);
    expect(unthreaded.map((turn) => turn.messages)).toEqual([1, 3, 5, 7]);
    expect(threaded.map((turn) => turn.replies)).toEqual(unthreaded.map((turn) => turn.replies));
  });

  it('a continue from a message the endpoint never sent is thread_not_found', async () => {
    const endpoint = simulatedFetch(model());
    const body = {
      model: 'claude-sonnet-5-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      thread: { type: 'continue', previous_message_id: 'msg_nope' },
    };
    const response = await endpoint('http://simulated.invalid/v1/messages', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { details: { error_code: 'thread_not_found' } } });
  });
});
