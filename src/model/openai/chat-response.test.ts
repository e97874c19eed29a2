import { describe, expect, it } from 'vitest';
import { assistantMessage } from '../assistant-message.js';
import { fromChatCompletion, toChatCompletion } from './chat-response.js';

const request = { model: 'm', max_tokens: 100, messages: [{ role: 'user' as const, content: 'go' }] };

describe('chat completions and Messages replies', () => {
  it('a tool call goes out with JSON text arguments and comes back as a tool_use whose input is that text', () => {
    const reply = assistantMessage('msg_1', request, [
      { type: 'text', text: 'Fetching.', citations: null },
      { type: 'tool_use', id: 'call_1', name: 'get_user', input: { user_id: 'u_1' }, caller: { type: 'direct' } },
    ]);
    const completion = toChatCompletion(reply);
    expect(completion).toMatchObject({
      id: 'chatcmpl-msg_1',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Fetching.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_user', arguments: '{"user_id":"u_1"}' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: reply.usage.input_tokens,
        completion_tokens: reply.usage.output_tokens,
        total_tokens: reply.usage.input_tokens + reply.usage.output_tokens,
      },
    });
    const back = fromChatCompletion(completion);
    expect(back.content).toEqual([
      { type: 'text', text: 'Fetching.', citations: null },
      { type: 'tool_use', id: 'call_1', name: 'get_user', input: '{"user_id":"u_1"}', caller: { type: 'direct' } },
    ]);
    expect(back).toMatchObject({
      id: 'chatcmpl-msg_1',
      stop_reason: 'tool_use',
      usage: { input_tokens: reply.usage.input_tokens, output_tokens: reply.usage.output_tokens },
    });
  });

  it('maps finish_reason to stop_reason both ways', () => {
    const text = assistantMessage('msg_2', request, [{ type: 'text', text: 'Done.', citations: null }]);
    expect(toChatCompletion(text).choices[0]?.finish_reason).toBe('stop');
    expect(toChatCompletion({ ...text, stop_reason: 'max_tokens' }).choices[0]?.finish_reason).toBe('length');
    expect(toChatCompletion({ ...text, stop_reason: 'refusal' }).choices[0]?.finish_reason).toBe('content_filter');
    const finish = (finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter') => {
      const completion = toChatCompletion(text);
      return fromChatCompletion({ ...completion, choices: [{ ...completion.choices[0]!, finish_reason }] }).stop_reason;
    };
    expect([finish('stop'), finish('length'), finish('tool_calls'), finish('content_filter')]).toEqual([
      'end_turn',
      'max_tokens',
      'tool_use',
      'refusal',
    ]);
  });

  it('a reply without text has no text block, and a completion without choices is an error', () => {
    const completion = toChatCompletion(
      assistantMessage('msg_3', request, [
        { type: 'tool_use', id: 'c', name: 't', input: {}, caller: { type: 'direct' } },
      ]),
    );
    expect(completion.choices[0]?.message.content).toBeNull();
    expect(fromChatCompletion(completion).content.map((block) => block.type)).toEqual(['tool_use']);
    expect(() => fromChatCompletion({ ...completion, choices: [] })).toThrow(/has no choices/);
  });
});
