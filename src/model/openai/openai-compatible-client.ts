import OpenAI from 'openai';
import type { Message, ModelClient, ModelRequest } from '../model-client.js';
import { toAnthropicError } from './chat-errors.js';
import { toChatRequest } from './chat-request.js';
import { fromChatCompletion } from './chat-response.js';

export interface OpenAICompatibleClientOptions {
  readonly apiKey: string;
  /** The server's base URL, e.g. `http://localhost:8000/v1`. @default OpenAI's */
  readonly baseURL?: string;
  /** Replaces the network: the simulated Chat Completions endpoint in tests and simulated sweeps. */
  readonly fetch?: typeof fetch;
  /** Label for results. @default 'openai-compatible' */
  readonly name?: string;
}

/**
 * A ModelClient over the real `openai` client speaking Chat Completions: requests are
 * translated from the Messages shape, replies come back as Messages whose tool_use
 * `input` is the raw argument string (the loop parses it), and the `openai` client's
 * errors become the Anthropic SDK's error classes, so recovery guards read one family.
 * Built with `maxRetries: 0`: no hidden retry layer under the guards being measured.
 *
 * @example
 * const model = new OpenAICompatibleModelClient({ apiKey, baseURL: 'http://localhost:8000/v1' });
 */
export class OpenAICompatibleModelClient implements ModelClient {
  readonly name: string;
  readonly #client: OpenAI;

  constructor(options: OpenAICompatibleClientOptions) {
    this.name = options.name ?? 'openai-compatible';
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      maxRetries: 0,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }

  async create(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): Promise<Message> {
    const chat = toChatRequest(request);
    try {
      const completion = await this.#client.chat.completions.create(
        chat,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      return fromChatCompletion(completion);
    } catch (error) {
      throw toAnthropicError(error);
    }
  }
}
