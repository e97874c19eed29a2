import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { anthropicTranscript, replyBlocks } from './langchain-transcript.js';

describe('anthropicTranscript', () => {
  it('reads a LangChain conversation as the Messages-shaped transcript our guards read', () => {
    const transcript = anthropicTranscript([
      new SystemMessage('be careful'),
      new HumanMessage('Fetch u_1 and u_2.'),
      new AIMessage({
        content: 'Fetching both.',
        tool_calls: [
          { id: 't1', name: 'get_user', args: { id: 'u_1' } },
          { id: 't2', name: 'get_user', args: { id: 'u_2' } },
        ],
      }),
      new ToolMessage({ content: '{"id":"u_1"}', tool_call_id: 't1' }),
      new ToolMessage({ content: 'Error: timed out', tool_call_id: 't2', status: 'error' }),
      new AIMessage('Done.'),
    ]);
    expect(transcript).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Fetch u_1 and u_2.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Fetching both.' },
          { type: 'tool_use', id: 't1', name: 'get_user', input: { id: 'u_1' } },
          { type: 'tool_use', id: 't2', name: 'get_user', input: { id: 'u_2' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: '{"id":"u_1"}' },
          { type: 'tool_result', tool_use_id: 't2', content: 'Error: timed out', is_error: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });

  it('takes a reply’s tool calls from tool_calls, not from the tool_use parts ChatAnthropic leaves in its content', () => {
    const reply = new AIMessage({
      content: [
        { type: 'text', text: 'ok' },
        { type: 'tool_use', id: 't1', name: 'get_user', input: { id: 'u_1' } },
      ],
      tool_calls: [{ id: 't1', name: 'get_user', args: { id: 'u_1' } }],
    });
    expect(replyBlocks(reply)).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'tool_use', id: 't1', name: 'get_user', input: { id: 'u_1' } },
    ]);
  });
});
