import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { messageTokens, requestTokens } from './token-estimate.js';

const request = (messages: MessageParam[]) => ({ model: 'm', max_tokens: 100, messages });
/** The count of a request read from nothing remembered: its own copy of the messages. */
const fresh = (messages: MessageParam[]) => requestTokens(request([...messages]));

describe('requestTokens', () => {
  it('counts a live transcript as a fresh copy of it is counted, its last message replaced or not', () => {
    const live: MessageParam[] = [{ role: 'user', content: 'fetch the record' }];
    expect(requestTokens(request(live))).toBe(fresh(live));
    live.push({ role: 'assistant', content: 'on it' }, { role: 'user', content: 'short' });
    expect(requestTokens(request(live))).toBe(fresh(live));
    expect(requestTokens(request(live))).toBe(fresh(live));
    // A guard replaces the last message with a longer one: counted anew, not remembered.
    live[2] = { role: 'user', content: 'short, and a note appended to it that makes it a good deal longer' };
    expect(requestTokens(request(live))).toBe(fresh(live));
    expect(requestTokens(request(live))).toBe(
      messageTokens(live[0]!) + messageTokens(live[1]!) + messageTokens(live[2]!),
    );
  });
});
