import Anthropic from '@anthropic-ai/sdk';
import type { Message, ModelClient, ModelRequest, RawMessageStreamEvent } from './model-client.js';
import { withCitations } from './text-citations.js';
import type { BatchApi, BatchResultLine } from './batch/batching-model.js';

/**
 * How to reach the Messages API: the key, and optionally another base URL or `fetch`.
 *
 * @example
 * new AnthropicModelClient({ apiKey: process.env.ANTHROPIC_API_KEY!, timeoutMs: 60_000 })
 */
export interface AnthropicClientOptions {
  readonly apiKey: string;
  /** Replaces the network: the simulated endpoint, in tests and simulated sweeps. */
  readonly fetch?: typeof fetch;
  readonly baseURL?: string;
  /** Label for results. @default 'anthropic' */
  readonly name?: string;
  /** The SDK's request timeout in ms (live mode scales it down). @default the SDK's (10 minutes) */
  readonly timeoutMs?: number;
}

/** Keep only the Message fields, so transcripts do not depend on SDK bookkeeping or on how the wire wrote them. */
function plainMessage(message: Message): Message {
  const { id, type, role, model, stop_reason, stop_sequence, stop_details, container, diagnostics, usage } = message;
  const content = message.content.map(withCitations);
  return { id, type, role, model, content, stop_reason, stop_sequence, stop_details, container, diagnostics, usage };
}

/** SDK warnings this process has printed: the SDK repeats its deprecation notice on every request. */
const printedWarnings = new Set<string>();

/**
 * `send()` with the SDK's console warnings printed once per process. The SDK warns
 * synchronously as `messages.create` is called (an old model id is deprecated), so
 * console.warn is swapped only for that call: no other code can run in between.
 */
function warningsOnce<T>(send: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (printedWarnings.has(text)) return;
    printedWarnings.add(text);
    warn(...args);
  };
  try {
    return send();
  } finally {
    console.warn = warn;
  }
}

/**
 * A ModelClient over the real `@anthropic-ai/sdk` client. Built with `maxRetries: 0`:
 * the SDK must not retry underneath the guards being measured.
 *
 * @example
 * const model = new AnthropicModelClient({ apiKey: process.env.ANTHROPIC_API_KEY! });
 * const loop = new BudgetedAgentLoop({ model, tools, guards: [llmRecovery()] });
 */
export class AnthropicModelClient implements ModelClient {
  readonly name: string;
  readonly #client: Anthropic;

  constructor(options: AnthropicClientOptions) {
    this.name = options.name ?? 'anthropic';
    const transport = {
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    };
    this.#client = new Anthropic({ maxRetries: 0, apiKey: options.apiKey, ...transport });
  }

  async create(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): Promise<Message> {
    const message = await warningsOnce(() =>
      this.#client.messages.create(request, options.signal === undefined ? {} : { signal: options.signal }),
    );
    return plainMessage(message);
  }

  /** The Message Batches API through the same client (its key, base URL and fetch), replies read as `create` reads them. */
  batchApi(): BatchApi {
    const batches = this.#client.messages.batches;
    return {
      create: (requests) =>
        batches.create({ requests: requests.map(({ custom_id, params }) => ({ custom_id, params })) }),
      retrieve: (id) => batches.retrieve(id),
      results: async (id) => readResults(await batches.results(id)),
    };
  }

  /**
   * `create({ stream: true })`: the SDK's own SSE parser reads the response; an HTTP error
   * rejects before the first event, an `event: error` frame throws the SDK's APIError mid-stream.
   * A text block starts with `citations: null` when the wire left it out, as `create` reads it.
   */
  async *stream(
    request: ModelRequest,
    options: { readonly signal?: AbortSignal } = {},
  ): AsyncGenerator<RawMessageStreamEvent> {
    const events = await warningsOnce(() =>
      this.#client.messages.create(
        { ...request, stream: true },
        options.signal === undefined ? {} : { signal: options.signal },
      ),
    );
    for await (const event of events)
      yield event.type === 'content_block_start'
        ? { ...event, content_block: withCitations(event.content_block) }
        : event;
  }
}

/** A batch's result lines, a success's message kept to the Message fields as `create` keeps them. */
async function* readResults(lines: AsyncIterable<unknown>): AsyncGenerator<BatchResultLine> {
  for await (const line of lines as AsyncIterable<BatchResultLine>)
    yield line.result.type === 'succeeded'
      ? { custom_id: line.custom_id, result: { type: 'succeeded', message: plainMessage(line.result.message) } }
      : line;
}
