import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.js';
import type { CacheAccount } from './prompt-cache.js';
import { PromptCache } from './prompt-cache.js';
import type { ModelRequest } from './model-client.js';
import { requestTokens } from './token-estimate.js';

const MODEL = 'claude-sonnet-4-5'; // caches prefixes of 1,024 tokens and more
const LONG = 'x'.repeat(4 * 1200); // about 1,200 tokens
const TOOL: Tool = { name: 'fetch_user', description: 'Fetch a user.', input_schema: { type: 'object' } };

function request(messages: MessageParam[], more: Partial<ModelRequest> = {}): ModelRequest {
  return { model: MODEL, max_tokens: 100, messages, cache_control: { type: 'ephemeral' }, ...more };
}

/** A user turn, an assistant call and its result: three blocks a turn. */
function turn(i: number): MessageParam[] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'fetch_user', input: { id: i } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `record ${i}` }] },
  ];
}

function accounted(cache: PromptCache, sent: ModelRequest): CacheAccount {
  const account = cache.account(sent);
  if (account === null || typeof account === 'string') throw new Error(`no account: ${String(account)}`);
  return account;
}

describe('PromptCache', () => {
  it('writes the whole prompt at the top-level mark, then each call reads what the one before wrote', () => {
    const clock = new VirtualClock();
    const cache = new PromptCache(() => clock.now());
    const live: MessageParam[] = [{ role: 'user', content: LONG }];
    const first = accounted(cache, request(live));
    expect(first).toEqual({ read: 0, written5m: requestTokens(request(live)), written1h: 0 });
    const before = requestTokens(request(live));
    live.push(...turn(1));
    const second = accounted(cache, request(live));
    expect(second.read).toBe(before);
    expect(second.read + second.written5m).toBe(requestTokens(request(live)));
  });

  it('reads a prefix by its content, not by the objects that carry it', () => {
    const cache = new PromptCache(() => 0);
    accounted(cache, request([{ role: 'user', content: LONG }]));
    const copy = accounted(cache, request([{ role: 'user', content: LONG }, ...turn(1)]));
    expect(copy.read).toBeGreaterThan(1000);
  });

  it('writes nothing below the model minimum, and so reads nothing later', () => {
    const cache = new PromptCache(() => 0);
    const live: MessageParam[] = [{ role: 'user', content: 'short' }];
    expect(accounted(cache, request(live))).toEqual({ read: 0, written5m: 0, written1h: 0 });
    live.push(...turn(1));
    expect(accounted(cache, request(live)).read).toBe(0);
  });

  it('forgets an entry five minutes after its last use; a read keeps it', () => {
    const clock = new VirtualClock();
    const cache = new PromptCache(() => clock.now());
    const live: MessageParam[] = [{ role: 'user', content: LONG }];
    accounted(cache, request(live));
    live.push(...turn(1));
    clock.sleep(4 * 60_000);
    expect(accounted(cache, request(live)).read).toBeGreaterThan(0);
    live.push(...turn(2));
    clock.sleep(4 * 60_000); // 8 minutes after the first write, 4 after the last read
    expect(accounted(cache, request(live)).read).toBeGreaterThan(0);
    live.push(...turn(3));
    clock.sleep(5 * 60_000 + 1);
    expect(accounted(cache, request(live)).read).toBe(0);
  });

  it('keeps an hour-long entry past five minutes and prices its write apart', () => {
    const clock = new VirtualClock();
    const cache = new PromptCache(() => clock.now());
    const live: MessageParam[] = [{ role: 'user', content: LONG }];
    const hour = { cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } };
    expect(accounted(cache, request(live, hour)).written1h).toBe(requestTokens(request(live)));
    live.push(...turn(1));
    clock.sleep(30 * 60_000);
    expect(accounted(cache, request(live, hour)).read).toBeGreaterThan(0);
  });

  it('is one per model: a fallback model reads nothing the primary wrote', () => {
    const cache = new PromptCache(() => 0);
    accounted(cache, request([{ role: 'user', content: LONG }]));
    const other = accounted(
      cache,
      request([{ role: 'user', content: LONG }, ...turn(1)], { model: 'claude-opus-4-1' }),
    );
    expect(other.read).toBe(0);
  });

  it('looks back at most 20 blocks before a breakpoint', () => {
    const cache = new PromptCache(() => 0);
    const live: MessageParam[] = [{ role: 'user', content: LONG }];
    accounted(cache, request(live));
    for (let i = 0; i < 10; i++) live.push(...turn(i)); // 20 blocks later: the entry is 20 back, out of reach
    expect(accounted(cache, request(live)).read).toBe(0);
  });

  it('reads the tools prefix when the transcript changed, through a mark on the last tool', () => {
    const cache = new PromptCache(() => 0);
    const tools: Tool[] = [{ ...TOOL, description: LONG, cache_control: { type: 'ephemeral' } }];
    accounted(cache, request([{ role: 'user', content: 'first task' }], { tools }));
    const changed = accounted(cache, request([{ role: 'user', content: 'another task' }], { tools }));
    expect(changed.read).toBeGreaterThan(1000);
    expect(changed.read).toBeLessThan(requestTokens(request([{ role: 'user', content: 'another task' }], { tools })));
  });

  it('refuses more than four breakpoints as the API does, and a request without any is not its business', () => {
    const cache = new PromptCache(() => 0);
    const marked = (i: number): MessageParam => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: `m${i}`, cache_control: { type: 'ephemeral' } }],
    });
    const five = [0, 1, 2, 3, 4].map(marked);
    expect(cache.account(request(five, { cache_control: null }))).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    expect(cache.account({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: LONG }] })).toBeNull();
  });

  it('never counts more than the prompt: read, written and fresh add up to its tokens', () => {
    const cache = new PromptCache(() => 0);
    const live: MessageParam[] = [{ role: 'user', content: LONG }];
    for (let i = 0; i < 6; i++) {
      const sent = request(live, { tools: [{ ...TOOL, cache_control: { type: 'ephemeral' } }] });
      const { read, written5m } = accounted(cache, sent);
      expect(read + written5m).toBeLessThanOrEqual(requestTokens(sent));
      live.push(...turn(i));
    }
  });
});
