import type {
  Message as AnthropicMessage,
  MessageCreateParamsNonStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';

/**
 * One model call's request: the Messages API's `MessageCreateParamsNonStreaming`.
 *
 * @example
 * const request: ModelRequest = { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] };
 */
export type ModelRequest = MessageCreateParamsNonStreaming;

/**
 * One model reply: the Messages API's `Message`.
 *
 * @example
 * const calls = reply.content.filter((block) => block.type === 'tool_use');
 */
export type Message = AnthropicMessage;
export type { RawMessageStreamEvent };

/**
 * The one port between the loop and a model, in the Anthropic Messages shapes. The
 * simulated model, the same model behind the real SDK, the scripted model and real
 * Claude all implement it.
 *
 * @example
 * // Any provider, adapted at the edge to the Messages shapes.
 * const myModel: ModelClient = {
 *   name: 'my-provider',
 *   create: async (request) => toAnthropicMessage(await myProvider.chat(fromAnthropicRequest(request))),
 * };
 */
export interface ModelClient {
  /** A label for results and transcripts, e.g. `simulated`, `simulated-sdk`, `anthropic`. */
  readonly name: string;
  /**
   * One model call. The request is valid for the duration of the call only: the loop
   * goes on appending to its `messages`, so a client that keeps it must copy it.
   */
  create(request: ModelRequest, options?: { readonly signal?: AbortSignal }): Promise<Message>;
  /**
   * The same call streamed (`stream: true` on the wire): the reply as the Messages API's
   * stream events, in order. A failure before the first event rejects the iteration at
   * once; one mid-stream (an `event: error` frame) throws after the events sent so far.
   * Optional: a client without it is read through `streamOf`, which replays `create`.
   */
  stream?(request: ModelRequest, options?: { readonly signal?: AbortSignal }): AsyncIterable<RawMessageStreamEvent>;
}

/** The model id requests carry unless the user names one (`--model`). */
export const DEFAULT_MODEL_ID = 'claude-sonnet-5-5';
