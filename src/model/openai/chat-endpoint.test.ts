import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/loader.js';
import { SimulatedModel } from '../simulated/simulated-model.js';
import { simulatedChatFetch } from './chat-endpoint.js';

const scenario = loadScenario('malformed-args');
const model = new SimulatedModel({
  persona: scenario.persona,
  plan: scenario.plan,
  streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 1 },
});
const fetch = simulatedChatFetch({ model });
const post = (path: string, body: unknown) =>
  fetch(`http://simulated.invalid/v1${path}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('simulatedChatFetch', () => {
  it('answers POST /v1/chat/completions with a chat.completion whose tool call arguments are JSON text', async () => {
    const response = await post('/chat/completions', {
      model: 'm',
      max_completion_tokens: 256,
      messages: [{ role: 'user', content: scenario.prompt }],
      tools: scenario.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.definition.name, parameters: tool.definition.input_schema },
      })),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_chatcmpl-/);
    const body = (await response.json()) as {
      object: string;
      choices: Array<{
        finish_reason: string;
        message: { tool_calls: Array<{ function: { name: string; arguments: string } }> };
      }>;
    };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
    expect(body.choices[0]?.message.tool_calls[0]?.function).toEqual({
      name: 'get_order',
      arguments: '{"order_id":"o_5120"}',
    });
  });

  it('answers another path with a 404, and a broken body, an unsupported block or an unpaired result with a 400, in OpenAI error bodies', async () => {
    const notFound = await post('/completions', {});
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const broken = await post('/chat/completions', '{"model":');
    expect([broken.status, ((await broken.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'We could not parse the JSON body of your request.',
    ]);
    const legacy = await post('/chat/completions', {
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'function', name: 'f', content: 'x' },
      ],
    });
    expect([legacy.status, ((await legacy.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      "unsupported at this endpoint: a 'function' message",
    ]);
    const orphan = await post('/chat/completions', {
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', tool_call_id: 'call_x', content: '{}' },
      ],
    });
    expect(orphan.status).toBe(400);
    expect(((await orphan.json()) as { error: { message: string } }).error.message).toMatch(
      /unexpected `tool_use_id` found in `tool_result` blocks: call_x/,
    );
  });
});
