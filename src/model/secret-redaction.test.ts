import { describe, expect, it } from 'vitest';
import { classifyModelError, describeModelError } from '../loop/model-errors.js';
import { AnthropicModelClient } from './anthropic-client.js';
import type { ModelRequest } from './model-client.js';
import { OpenAICompatibleModelClient } from './openai/openai-compatible-client.js';
import { REDACTED, redactSecrets, withRedactedErrors } from './secret-redaction.js';

const KEY = 'sk-proj-FAKE-KEY-echoed-by-a-careless-proxy-42';
const request: ModelRequest = { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };

/** A server that answers 401 and quotes the credentials it was sent, as some proxies do. */
const echoingFetch =
  (body: (auth: string) => unknown): typeof fetch =>
  async (_input, init) => {
    const headers = new Headers(init?.headers);
    const auth = headers.get('authorization') ?? headers.get('x-api-key') ?? '';
    return new Response(JSON.stringify(body(auth)), { status: 401, headers: { 'content-type': 'application/json' } });
  };

async function failure(create: () => Promise<unknown>): Promise<unknown> {
  try {
    await create();
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('redactSecrets', () => {
  it('replaces every occurrence, and leaves placeholders too short to be keys alone', () => {
    expect(redactSecrets(`a ${KEY} b ${KEY}`, [KEY])).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(redactSecrets('none of it', ['none'])).toBe('none of it');
  });
});

describe('withRedactedErrors', () => {
  it('scrubs a key an OpenAI-compatible server echoes, keeping the error class the guards read', async () => {
    const client = () =>
      new OpenAICompatibleModelClient({
        apiKey: KEY,
        baseURL: 'http://127.0.0.1:1/v1',
        fetch: echoingFetch((auth) => ({
          error: {
            message: `Incorrect API key provided: ${auth}`,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        })),
      });
    const raw = await failure(() => client().create(request));
    expect(describeModelError(raw)).toContain(KEY); // what would leak without the wrapper
    const error = await failure(() => withRedactedErrors(client(), [KEY]).create(request));
    expect(classifyModelError(error)).toBe('auth');
    const everything = [
      describeModelError(error),
      String(error),
      (error as Error).stack ?? '',
      JSON.stringify(error),
    ].join('\n');
    expect(everything).not.toContain(KEY);
    expect(describeModelError(error)).toContain(`Incorrect API key provided: Bearer ${REDACTED}`);
  });

  it('scrubs the Anthropic client errors the same way', async () => {
    const client = withRedactedErrors(
      new AnthropicModelClient({
        apiKey: KEY,
        baseURL: 'http://127.0.0.1:1',
        fetch: echoingFetch((auth) => ({
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key: ${auth}` },
        })),
      }),
      [KEY],
    );
    const error = await failure(() => client.create(request));
    expect(classifyModelError(error)).toBe('auth');
    expect([describeModelError(error), String(error), JSON.stringify(error)].join('\n')).not.toContain(KEY);
  });
});
