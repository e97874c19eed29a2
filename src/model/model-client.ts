import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

export type ModelRequest = MessageCreateParamsNonStreaming;
export type { Message };

/**
 * The one port between the loop and a model, in the Anthropic Messages shapes. The
 * simulated model, the same model behind the real SDK, the scripted model and real
 * Claude all implement it.
 */
export interface ModelClient {
  /** A label for results and transcripts, e.g. `simulated`, `simulated-sdk`, `anthropic`. */
  readonly name: string;
  /**
   * One model call. The request is valid for the duration of the call only: the loop
   * goes on appending to its `messages`, so a client that keeps it must copy it.
   */
  create(request: ModelRequest, options?: { readonly signal?: AbortSignal }): Promise<Message>;
}

/** The model id requests carry unless the user names one (`--model`). */
export const DEFAULT_MODEL_ID = 'claude-sonnet-5-5';
