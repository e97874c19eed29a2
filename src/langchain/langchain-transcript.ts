import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { BaseMessage } from '@langchain/core/messages';

/** A LangChain message's text blocks and tool blocks in the Anthropic shape (what ChatAnthropic sends). */
function contentBlocks(content: BaseMessage['content']): ContentBlockParam[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: ContentBlockParam[] = [];
  for (const part of content as ReadonlyArray<Record<string, unknown>>) {
    if (part['type'] === 'text' && typeof part['text'] === 'string') blocks.push({ type: 'text', text: part['text'] });
  }
  return blocks;
}

function textOf(content: BaseMessage['content']): string {
  return contentBlocks(content)
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}

/**
 * The agent's LangChain messages as the Anthropic transcript our guards read: an AI message
 * becomes an assistant turn with its text and `tool_use` blocks, a run of tool messages one
 * user turn of `tool_result` blocks (an error status is `is_error`), a human message a user
 * turn. System messages are left out (the system prompt is not part of `messages`).
 *
 * @example
 * anthropicTranscript([new HumanMessage('go'), new AIMessage({ content: '', tool_calls: [{ id: 't1', name: 'get_user', args: {} }] })])
 * // [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_user', input: {} }] }]
 */
export function anthropicTranscript(messages: readonly BaseMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  let results: ContentBlockParam[] | null = null;
  for (const message of messages) {
    const type = message.getType();
    if (type === 'tool') {
      const tool = message as BaseMessage & { readonly tool_call_id: string; readonly status?: string };
      const block: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: tool.tool_call_id,
        content: textOf(tool.content),
      };
      if (tool.status === 'error') block.is_error = true;
      if (results === null) {
        results = [];
        out.push({ role: 'user', content: results });
      }
      results.push(block);
      continue;
    }
    results = null;
    if (type === 'ai') {
      out.push({ role: 'assistant', content: replyBlocks(message) });
    } else if (type === 'human') {
      out.push({ role: 'user', content: contentBlocks(message.content) });
    }
  }
  return out;
}

/** A tool call as an AI message holds it. */
interface ToolCallLike {
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
}

/**
 * An AI message's text and tool calls as Anthropic blocks, in the order ChatAnthropic sends
 * them back (text first, then each `tool_use`).
 *
 * @example
 * replyBlocks(new AIMessage({ content: 'ok', tool_calls: [{ id: 't1', name: 'get_user', args: { id: 'u_1' } }] }))
 * // [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 't1', name: 'get_user', input: { id: 'u_1' } }]
 */
export function replyBlocks(message: BaseMessage): ContentBlockParam[] {
  const calls = (message as BaseMessage & { readonly tool_calls?: readonly ToolCallLike[] }).tool_calls ?? [];
  const content = contentBlocks(message.content);
  for (const call of calls) content.push({ type: 'tool_use', id: call.id ?? '', name: call.name, input: call.args });
  return content;
}
