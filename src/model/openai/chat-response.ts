import type { ContentBlock, StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletion, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { Message } from '../model-client.js';

/*
 * Replies between Chat Completions and the Messages shape. On the way in, a tool call's
 * `input` is the argument text exactly as the model wrote it: parsing it is the loop's
 * job (and the argument-repair guard's), never the edge's.
 */

export type FinishReason = ChatCompletion.Choice['finish_reason'];

const FINISH_OF_STOP: Readonly<Record<StopReason, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

const STOP_OF_FINISH: Readonly<Record<FinishReason, StopReason>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/** A Messages reply as a Chat Completions response; tool arguments become JSON text (kept as is when already text). */
export function toChatCompletion(message: Message): ChatCompletion {
  let text = '';
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') {
      calls.push({
        id: block.id,
        type: 'function',
        function: {
          name: block.name,
          arguments: typeof block.input === 'string' ? block.input : JSON.stringify(block.input ?? {}),
        },
      });
    }
  }
  return {
    id: `chatcmpl-${message.id}`,
    object: 'chat.completion',
    // Fixed, not the wall clock: a simulated reply is the same bytes on every run.
    created: 0,
    model: message.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' ? null : text,
          refusal: null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: message.stop_reason === null ? 'stop' : FINISH_OF_STOP[message.stop_reason],
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: message.usage.input_tokens,
      completion_tokens: message.usage.output_tokens,
      total_tokens: message.usage.input_tokens + message.usage.output_tokens,
    },
  };
}

/**
 * A Chat Completions response as a Messages reply: the first choice's text, then one
 * tool_use per function call whose `input` is the raw argument string.
 */
export function fromChatCompletion(completion: ChatCompletion): Message {
  const choice = completion.choices[0];
  if (choice === undefined) throw new Error(`chat completion ${completion.id} has no choices`);
  const content: ContentBlock[] = [];
  if (typeof choice.message.content === 'string' && choice.message.content !== '')
    content.push({ type: 'text', text: choice.message.content, citations: null });
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: call.function.arguments,
      caller: { type: 'direct' },
    });
  }
  const usage = completion.usage;
  return {
    id: completion.id,
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content,
    stop_reason: STOP_OF_FINISH[choice.finish_reason],
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: {
      // Chat Completions counts cached tokens inside prompt_tokens; the Messages API apart.
      input_tokens: (usage?.prompt_tokens ?? 0) - (usage?.prompt_tokens_details?.cached_tokens ?? 0),
      output_tokens: usage?.completion_tokens ?? 0,
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: usage?.prompt_tokens_details?.cached_tokens ?? null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: null,
      speed: null,
    },
  };
}
