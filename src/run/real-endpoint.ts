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
 * placeholder, and this fetch puts the real key in the auth headers of requests to the
 * model server itself (its origin, under its base path) and of no other: a request
 * elsewhere goes out exactly as the agent wrote it. Everything that comes back — headers,
 * bodies of answers and of errors, connection errors — is scrubbed of every secret, so no
 * record, log or report can carry one.
 */
export function realAgentEndpoint(server: RealAgentServer): AgentEndpoint {
  const { secrets } = server;
  const isModelServer = servedBy(server.baseURL);
  const keyed: typeof fetch = async (input, init) => {
    let response: Response;
    try {
      response = await server.fetch(input, isModelServer(urlOf(input)) ? withAuth(init, server.auth) : init);
    } catch (error) {
      throw redactError(error, secrets);
    }
    return scrubbed(response, secrets);
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

/**
 * Whether a URL is the model server's: same origin, and the path at or under the base
 * URL's path. The URL parser has already resolved `..` and `%2e%2e`, so `/v1/../steal` is
 * `/steal` here as it is on the wire.
 */
function servedBy(baseURL: string): (url: URL | undefined) => boolean {
  const base = new URL(baseURL);
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return (url) =>
    url !== undefined &&
    url.origin === base.origin &&
    (url.pathname === base.pathname || url.pathname.startsWith(prefix));
}

function urlOf(input: Parameters<typeof fetch>[0]): URL | undefined {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(href);
  } catch {
    return undefined; // fetch will refuse it too; no key goes with it
  }
}

function withAuth(init: RequestInit | undefined, auth: Readonly<Record<string, string>>): RequestInit {
  const headers = new Headers(init?.headers);
  headers.delete('authorization');
  headers.delete('x-api-key');
  for (const [name, value] of Object.entries(auth)) headers.set(name, value);
  return { ...init, headers };
}

/**
 * The response with every secret scrubbed from its headers and body, answers as well as
 * errors: a proxy that echoes a request header, or a server that puts it in a reply, must
 * not hand it to the agent. The body is read whole (agent runs are unstreamed).
 */
async function scrubbed(response: Response, secrets: readonly string[]): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of response.headers) headers.append(name, redactSecrets(value, secrets));
  // The body below is already decoded and may change length.
  headers.delete('content-encoding');
  headers.delete('content-length');
  const init = { status: response.status, statusText: response.statusText, headers };
  if (response.body === null) return new Response(null, init);
  return new Response(redactSecrets(await response.text(), secrets), init);
}
