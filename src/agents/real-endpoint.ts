import { redactError, redactSecrets } from '../model/secret-redaction.js';
import type { AgentEndpoint } from './simulated-endpoint.js';

/** A real model's server as agents reach it. */
export interface RealAgentServer {
  /** The API the server speaks; the other API's base URL leads nowhere. */
  readonly api: 'anthropic' | 'openai-chat';
  /** Where its client points (`https://api.anthropic.com`, or an OpenAI-compatible `.../v1`). */
  readonly baseURL: string;
  /** The headers that carry the key (`x-api-key`, or `authorization: Bearer ...`): set here, never by the agent. */
  readonly auth: Readonly<Record<string, string>>;
  /** Texts that must not reach a record or a log: the key, credentials in the URL. */
  readonly secrets: readonly string[];
  /** The sweep's fetch (its request limiter). */
  readonly fetch: typeof fetch;
  readonly modelId: string;
  /** What records call the model, e.g. `anthropic:claude-haiku-4-5`. */
  readonly label: string;
}

/** A host nothing listens on: an agent that calls the API this server does not speak gets a connection error. */
const NOWHERE = 'http://unserved.invalid';

/**
 * A real model for an agent's clients. The agent never holds the key: its clients send a
 * placeholder, and this fetch puts the real key in the auth headers on the way out. What
 * comes back is scrubbed of every secret (an error body that echoes a header, a
 * connection error that names the URL), so no record, log or report can carry one.
 */
export function realAgentEndpoint(server: RealAgentServer): AgentEndpoint {
  const { secrets } = server;
  const keyed: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    headers.delete('x-api-key');
    for (const [name, value] of Object.entries(server.auth)) headers.set(name, value);
    let response: Response;
    try {
      response = await server.fetch(input, { ...init, headers });
    } catch (error) {
      throw redactError(error, secrets);
    }
    if (response.ok) return response;
    const text = await response.text();
    return new Response(redactSecrets(text, secrets), { status: response.status, headers: response.headers });
  };
  return {
    fetch: keyed,
    baseURL: {
      anthropic: server.api === 'anthropic' ? server.baseURL : NOWHERE,
      openai: server.api === 'openai-chat' ? server.baseURL : NOWHERE,
    },
    modelId: server.modelId,
    label: server.label,
    scrub: (error) => redactError(error, secrets),
  };
}
