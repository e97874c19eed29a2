import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicModelClient } from './anthropic-client.js';

/** A Messages endpoint that answers every request with the same short reply. */
const answering: typeof fetch = async () =>
  new Response(
    JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 1 },
    }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );

const request = (model: string) => ({
  model,
  max_tokens: 16,
  messages: [{ role: 'user' as const, content: 'hi' }],
});

afterEach(() => vi.restoreAllMocks());

describe("the SDK's deprecation warning for an old model id", () => {
  it('is printed once for a whole sweep of requests, from any of its clients, not once a request', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const clients = [1, 2].map(() => new AnthropicModelClient({ apiKey: 'sk-ant-test', fetch: answering }));
    for (let i = 0; i < 3; i++) for (const client of clients) await client.create(request('claude-sonnet-4-5'));
    const deprecations = warn.mock.calls.filter((args) => String(args[0]).includes('is deprecated'));
    expect(deprecations).toHaveLength(1);
    expect(String(deprecations[0]?.[0])).toContain("The model 'claude-sonnet-4-5' is deprecated");
  });

  it('leaves console.warn as it was, for everyone else', async () => {
    const before = console.warn;
    await new AnthropicModelClient({ apiKey: 'sk-ant-test', fetch: answering }).create(request('claude-sonnet-4-5'));
    expect(console.warn).toBe(before);
  });
});
