import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelRequest } from './model-client.js';
import { blockTokens, requestTokens } from './token-estimate.js';

/**
 * A complete assistant Message for a request, as the API returns it, with usage from
 * the shared token estimator: the same figures whichever model wrote the content.
 */
export function assistantMessage(id: string, request: ModelRequest, content: ContentBlock[]): Message {
  let outputTokens = 0;
  let calls = false;
  for (const block of content) {
    outputTokens += blockTokens(block);
    if (block.type === 'tool_use') calls = true;
  }
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: calls ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: {
      input_tokens: requestTokens(request),
      output_tokens: outputTokens,
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    },
  };
}
