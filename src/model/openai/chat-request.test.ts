import type { ModelRequest } from '../model-client.js';
import { describe, expect, it } from 'vitest';
import { fromChatRequest, toChatRequest, UnsupportedAtChatEdge } from './chat-request.js';

const tool = {
  name: 'get_user',
  description: 'Fetch a user.',
  input_schema: { type: 'object' as const, properties: { user_id: { type: 'string' } } },
};

const request: ModelRequest = {
  model: 'm',
  max_tokens: 512,
  system: 'Be brief.',
  tools: [tool],
  tool_choice: { type: 'auto' },
  messages: [
    { role: 'user', content: 'Fetch u_1.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Fetching.' },
        { type: 'tool_use', id: 'call_1', name: 'get_user', input: { user_id: 'u_1' } },
        { type: 'tool_use', id: 'call_2', name: 'get_user', input: '```json\n{"user_id": "u_2"}\n```' },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_1', content: '{"id":"u_1"}' },
        {
          type: 'tool_result',
          tool_use_id: 'call_2',
          content: 'Permanent failure: not found. Do not retry with the same arguments.',
          is_error: true,
        },
        { type: 'text', text: 'Tool budget: 3 calls left.' },
      ],
    },
  ],
};

describe('toChatRequest', () => {
  it('puts system first, tool messages right after their call, the user text after them, arguments as text', () => {
    expect(toChatRequest(request)).toEqual({
      model: 'm',
      max_completion_tokens: 512,
      tool_choice: 'auto',
      tools: [
        {
          type: 'function',
          function: { name: 'get_user', description: 'Fetch a user.', parameters: tool.input_schema },
        },
      ],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Fetch u_1.' },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Fetching.' }],
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_user', arguments: '{"user_id":"u_1"}' } },
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'get_user', arguments: '```json\n{"user_id": "u_2"}\n```' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"id":"u_1"}' },
        // A tool message has no error flag: the words must say it.
        {
          role: 'tool',
          tool_call_id: 'call_2',
          content: 'Error: Permanent failure: not found. Do not retry with the same arguments.',
        },
        { role: 'user', content: [{ type: 'text', text: 'Tool budget: 3 calls left.' }] },
      ],
    });
  });

  it('maps every tool_choice, and a single-call request to parallel_tool_calls false', () => {
    const choice = (tool_choice: NonNullable<ModelRequest['tool_choice']>) => {
      const chat = toChatRequest({ ...request, tool_choice });
      return [chat.tool_choice, chat.parallel_tool_calls];
    };
    expect(choice({ type: 'none' })).toEqual(['none', undefined]);
    expect(choice({ type: 'auto' })).toEqual(['auto', undefined]);
    expect(choice({ type: 'any' })).toEqual(['required', undefined]);
    expect(choice({ type: 'tool', name: 'get_user', disable_parallel_tool_use: true })).toEqual([
      { type: 'function', function: { name: 'get_user' } },
      false,
    ]);
  });

  it('refuses a block Chat Completions cannot carry, naming it', () => {
    const image: ModelRequest = {
      ...request,
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x.invalid/a.png' } }] },
      ],
    };
    expect(() => toChatRequest(image)).toThrow(UnsupportedAtChatEdge);
    expect(() => toChatRequest(image)).toThrow(/a user 'image' block/);
  });
});

describe('fromChatRequest', () => {
  it('reads back what the model needs: one user turn for the results and the text, arguments as the text sent', () => {
    const back = fromChatRequest(toChatRequest(request));
    expect(back).toEqual({
      model: 'm',
      max_tokens: 512,
      system: 'Be brief.',
      tools: [tool],
      tool_choice: { type: 'auto' },
      messages: [
        { role: 'user', content: 'Fetch u_1.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Fetching.' },
            { type: 'tool_use', id: 'call_1', name: 'get_user', input: '{"user_id":"u_1"}' },
            { type: 'tool_use', id: 'call_2', name: 'get_user', input: '```json\n{"user_id": "u_2"}\n```' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '{"id":"u_1"}' },
            {
              type: 'tool_result',
              tool_use_id: 'call_2',
              content: 'Error: Permanent failure: not found. Do not retry with the same arguments.',
            },
            { type: 'text', text: 'Tool budget: 3 calls left.' },
          ],
        },
      ],
    });
  });

  it('gives back the same message objects for the same Chat messages, so per-message caches keep working', () => {
    const chat = toChatRequest(request);
    const first = fromChatRequest(chat);
    const again = fromChatRequest({ ...chat, messages: [...chat.messages] });
    first.messages.forEach((message, i) => expect(again.messages[i]).toBe(message));
    // A changed member of a group is a new group.
    const changed = fromChatRequest({
      ...chat,
      messages: [...chat.messages.slice(0, -1), { role: 'user', content: 'other' }],
    });
    expect(changed.messages.at(-1)).not.toBe(first.messages.at(-1));
    expect(changed.messages.at(-1)).toEqual({
      role: 'user',
      content: [first.messages.at(-1)!.content[0], first.messages.at(-1)!.content[1], { type: 'text', text: 'other' }],
    });
  });

  it('reads results that no user text follows as a user turn of their own, and a max_tokens request without max_completion_tokens', () => {
    const back = fromChatRequest({
      model: 'm',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_user', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'ok' },
      ],
    });
    expect(back.max_tokens).toBe(64);
    expect(back.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'c', content: 'ok' }],
    });
    expect(back.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'c', name: 'get_user', input: '{}' }],
    });
  });
});
