import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/loader.js';
import type { ModelRequest } from '../model-client.js';
import { simulatedFetch } from './fetch-endpoint.js';
import { SimulatedModel } from './simulated-model.js';

const scenario = loadScenario('fetch-transform-write');
const model = () =>
  new SimulatedModel({
    persona: scenario.persona,
    plan: scenario.plan,
    streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 3 },
  });

const prompt: MessageParam = { role: 'user', content: scenario.prompt };
const getUser = (id: string): MessageParam => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'get_user', input: { user_id: 'u_1042' } }],
});
const answer = (id: string, content: string): MessageParam => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content }],
});
const record = JSON.stringify({ id: 'u_1042', name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.COM' });

function body(messages: readonly MessageParam[]): string {
  const request: ModelRequest = {
    model: 'claude-sonnet-5-5',
    max_tokens: 1024,
    system: scenario.system,
    tools: scenario.tools.map((tool) => tool.definition),
    messages: [...messages],
  };
  return JSON.stringify(request);
}

async function send(endpoint: typeof fetch, messages: readonly MessageParam[]): Promise<unknown> {
  const response = await endpoint('http://simulated.invalid/v1/messages', { method: 'POST', body: body(messages) });
  return { status: response.status, body: await response.json() };
}

/** The answer of an endpoint that has read nothing before. */
const fresh = (messages: readonly MessageParam[]) => send(simulatedFetch(model()), messages);

describe('simulatedFetch reading a conversation resent whole on every turn', () => {
  it('answers each turn of a growing conversation as it answers the same request afresh', async () => {
    const endpoint = simulatedFetch(model());
    const turns: MessageParam[][] = [
      [prompt],
      [prompt, getUser('toolu_1'), answer('toolu_1', 'Network timeout. May succeed if retried.')],
      [prompt, getUser('toolu_1'), answer('toolu_1', 'Network timeout. May succeed if retried.'), getUser('toolu_2')],
      [
        prompt,
        getUser('toolu_1'),
        answer('toolu_1', 'Network timeout. May succeed if retried.'),
        getUser('toolu_2'),
        answer('toolu_2', record),
      ],
    ];
    for (const messages of turns) expect(await send(endpoint, messages)).toEqual(await fresh(messages));
  });

  // Each earlier request has turns after the one that changes: a reading covers all but a
  // request's last message, so the change falls inside what was read.
  it('reads an earlier message changed under the same first message: its tokens and what it says', async () => {
    const endpoint = simulatedFetch(model());
    const later = [getUser('toolu_2'), answer('toolu_2', record)];
    expect(await send(endpoint, [prompt, getUser('toolu_1'), answer('toolu_1', record), ...later])).toMatchObject({
      status: 200,
    });
    // The first result cleared (as a context editor does), then the conversation goes on.
    const next = [getUser('toolu_3'), answer('toolu_3', record)];
    const cleared = [prompt, getUser('toolu_1'), answer('toolu_1', '[cleared]'), ...later, ...next];
    const after = await send(endpoint, cleared);
    expect(after).toMatchObject({ status: 200 });
    expect(after).toEqual(await fresh(cleared));
    const stale = [prompt, getUser('toolu_1'), answer('toolu_1', record), ...later, ...next];
    const tokens = (reply: unknown) => (reply as { body: { usage: { input_tokens: number } } }).body.usage.input_tokens;
    expect(tokens(after)).toBeLessThan(tokens(await fresh(stale)));
  });

  it('refuses a request whose earlier turn no longer pairs, after accepting it as it was', async () => {
    const endpoint = simulatedFetch(model());
    const later = [getUser('toolu_2'), answer('toolu_2', record)];
    expect(await send(endpoint, [prompt, getUser('toolu_1'), answer('toolu_1', record), ...later])).toMatchObject({
      status: 200,
    });
    const next = [getUser('toolu_3'), answer('toolu_3', record)];
    const broken = [prompt, getUser('toolu_1'), answer('toolu_9', record), ...later, ...next];
    const refused = await send(endpoint, broken);
    expect(refused).toMatchObject({ status: 400 });
    expect(refused).toEqual(await fresh(broken));
  });
});
