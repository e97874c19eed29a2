import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../model/model-client.js';
import { type CassetteExchange, cassettePath, readCassette, writeCassette } from './cassette-file.js';
import { requestParts } from './request-fingerprint.js';

const RUN = { scenario: 'tiny', arm: 'none', seed: 7, member: 2 };
const reply = (text: string): Message =>
  ({
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [{ type: 'text', text, citations: null }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  }) as Message;

/** `calls` calls of one run, each sending the transcript so far plus one message. */
function exchanges(calls: number, replyText: string): CassetteExchange[] {
  const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  return Array.from({ length: calls }, (_, i) => {
    messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i}` });
    const request = requestParts({ model: 'm', max_tokens: 10, messages: [...messages] });
    return { request, clock_ms: i, injected: null, reply: reply(replyText) };
  });
}

describe('cassette files', () => {
  it('keep each call as the messages it adds to the one before, and read back every call whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-cassette-'));
    const calls = exchanges(6, 'short');
    writeCassette(dir, RUN, 'simulated', calls);
    const path = cassettePath(dir, RUN);
    expect(path).toBe(join(dir, 'tiny', 'none', '7-m2.jsonl'));
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    // The sixth call sends six messages and keeps five of the fifth's.
    expect(JSON.parse(lines[6]!).request).toMatchObject({ kept: 5, added: [calls[5]!.request.messages[5]] });
    expect(readCassette(dir, RUN).exchanges).toEqual(calls);
  });

  it('gzip a large run, read it back the same, and leave no stale plain file of an earlier recording', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-cassette-'));
    writeCassette(dir, RUN, 'simulated', exchanges(2, 'short'));
    const big = exchanges(40, 'x'.repeat(2000));
    writeCassette(dir, RUN, 'simulated', big);
    const path = cassettePath(dir, RUN);
    expect(existsSync(`${path}.gz`)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(readCassette(dir, RUN).exchanges).toEqual(big);
  });
});
