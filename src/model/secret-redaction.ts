import { REDACTED, redactSecrets } from '../secrets/process-secrets.js';
import type { Message, ModelClient, ModelRequest, RawMessageStreamEvent } from './model-client.js';

export { REDACTED, redactSecrets };

/** Fields of an SDK error that carry text from the server (which may echo a header). */
const TEXT_FIELDS = ['message', 'apiMessage'] as const;
const BODY_FIELDS = ['error', 'details'] as const;

/** The same error object, its messages and body scrubbed, so its class still classifies it. */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? redactSecrets(error, secrets) : error;
  const fields = error as unknown as Record<string, unknown>;
  for (const field of TEXT_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string') fields[field] = redactSecrets(value, secrets);
  }
  for (const field of BODY_FIELDS) {
    const value = fields[field];
    if (value === null || typeof value !== 'object') continue;
    const json = JSON.stringify(value);
    const clean = redactSecrets(json, secrets);
    if (clean !== json) fields[field] = JSON.parse(clean) as unknown;
  }
  if (typeof error.stack === 'string') error.stack = redactSecrets(error.stack, secrets);
  if (error.cause !== undefined) redactError(error.cause, secrets);
  return error;
}

/**
 * A client whose failures never carry the key: a server (or a proxy) may echo the
 * Authorization header in an error body, and the loop writes error text into outcomes,
 * events and transcripts. Replies are left as they are: a key in a reply would mean the
 * model saw it, which the harness never sends.
 */
export function withRedactedErrors(client: ModelClient, secrets: readonly string[]): ModelClient {
  const redacted: ModelClient = {
    name: redactSecrets(client.name, secrets),
    async create(request: ModelRequest, options?: { readonly signal?: AbortSignal }): Promise<Message> {
      try {
        return await client.create(request, options);
      } catch (error) {
        throw redactError(error, secrets);
      }
    },
  };
  const { stream } = client;
  if (stream === undefined) return redacted;
  return {
    ...redacted,
    // Streamed calls fail the same ways, before the first event or mid-stream.
    async *stream(
      request: ModelRequest,
      options?: { readonly signal?: AbortSignal },
    ): AsyncGenerator<RawMessageStreamEvent> {
      try {
        yield* stream.call(client, request, options);
      } catch (error) {
        throw redactError(error, secrets);
      }
    },
  };
}
