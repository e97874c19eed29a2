import { describe, expect, it } from 'vitest';
import { realAgentEndpoint } from './real-endpoint.js';

const KEY = 'sk-ant-api03-secret-key-0123456789';

function endpoint(answer: (headers: Headers) => Response | Promise<Response>) {
  return realAgentEndpoint({
    api: 'anthropic',
    baseURL: 'https://api.example.test',
    auth: { 'x-api-key': KEY },
    secrets: [KEY],
    fetch: async (_input, init) => answer(new Headers(init?.headers)),
    modelId: 'claude-haiku-4-5',
    label: 'anthropic:claude-haiku-4-5',
  });
}

describe('realAgentEndpoint', () => {
  it("puts the real key in the auth header, over whatever the agent's client sent", async () => {
    let seen: Headers | undefined;
    const { fetch, baseURL } = endpoint((headers) => {
      seen = headers;
      return new Response('{}', { status: 200 });
    });
    await fetch(`${baseURL.anthropic}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'placeholder', authorization: 'Bearer placeholder' },
    });
    expect([seen?.get('x-api-key'), seen?.get('authorization')]).toEqual([KEY, null]);
    expect(baseURL.openai).toBe('http://unserved.invalid');
  });

  it('scrubs the key from an error body that echoes it, and from a connection error', async () => {
    const echo = endpoint(() => new Response(`{"error":{"message":"bad key ${KEY}"}}`, { status: 401 }));
    const body = await (await echo.fetch('https://api.example.test/v1/messages', { method: 'POST' })).text();
    expect(body).toBe('{"error":{"message":"bad key [redacted]"}}');
    const refused = endpoint(() => {
      throw new TypeError('fetch failed', { cause: new Error(`connect refused for ${KEY}`) });
    });
    const error = await refused.fetch('https://api.example.test/v1/messages').catch((caught: unknown) => caught);
    expect(String((error as Error).cause)).toBe('Error: connect refused for [redacted]');
  });
});
