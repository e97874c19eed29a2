import { createHash } from 'node:crypto';
import type { ModelRequest } from '../model/model-client.js';
import { canonicalJson } from '../scenarios/canonical-json.js';

/**
 * A request as a cassette keeps it: a digest of each part, so a replay can say which part
 * of a request differs from the recorded one (`system`, `tools`, `messages[3]`), without
 * keeping every transcript whole (a run's requests repeat its transcript call after call).
 */
export interface RequestParts {
  /** The URL path an agent's call went to (`/v1/messages`, `/v1/chat/completions`); absent for our loop's calls. */
  readonly path?: string;
  readonly model: string;
  readonly max_tokens: number;
  readonly system: string;
  readonly tools: string;
  readonly tool_choice: string;
  /** Everything else the request sets (temperature, metadata, …), as one digest. */
  readonly rest: string;
  /** One digest per message, in order. */
  readonly messages: readonly string[];
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** Messages are never edited in place (the loop's rule), so a message's digest is made once. */
const messageDigests = new WeakMap<object, string>();

function messageDigest(message: object): string {
  let known = messageDigests.get(message);
  if (known === undefined) {
    known = digest(canonicalJson(message));
    messageDigests.set(message, known);
  }
  return known;
}

const PARTS = new Set(['model', 'max_tokens', 'system', 'tools', 'tool_choice', 'messages', 'stream']);
/** On the wire `stream` decides the body's form (events or one JSON), so it is one of the other parameters. */
const WIRE_PARTS = new Set(['model', 'max_tokens', 'system', 'tools', 'tool_choice', 'messages']);

/**
 * The parts of a request, each digested. `stream` is left out: a reply is the same
 * however it is delivered.
 *
 * @example
 * requestParts({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [] }).messages; // []
 */
export function requestParts(request: ModelRequest, parts: ReadonlySet<string> = PARTS): RequestParts {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) if (!parts.has(key)) rest[key] = value;
  return {
    model: request.model,
    max_tokens: request.max_tokens,
    system: digest(canonicalJson(request.system ?? null)),
    tools: digest(canonicalJson(request.tools ?? null)),
    tool_choice: digest(canonicalJson(request.tool_choice ?? null)),
    rest: digest(canonicalJson(rest)),
    messages: request.messages.map(messageDigest),
  };
}

/**
 * The parts of an HTTP request an agent's client sent: its path, and, when the body is a
 * model request (a JSON object with `messages`), the same digests as `requestParts`;
 * any other body as one digest.
 */
export function bodyParts(path: string, body: string): RequestParts {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    request = undefined;
  }
  if (typeof request === 'object' && request !== null && Array.isArray((request as ModelRequest).messages))
    return { path, ...requestParts(request as ModelRequest, WIRE_PARTS) };
  const none = digest('null');
  return {
    path,
    model: '',
    max_tokens: 0,
    system: none,
    tools: none,
    tool_choice: none,
    rest: digest(body),
    messages: [],
  };
}

/**
 * The first part in which two requests differ, named as a field of the request
 * (`system`, `messages[3]`, `messages (4 recorded, 6 sent)`), or null when they are the same.
 */
export function firstDifference(recorded: RequestParts, sent: RequestParts): string | null {
  if (recorded.path !== sent.path) return `the path (${recorded.path ?? 'none'} recorded, ${sent.path ?? 'none'} sent)`;
  for (const field of ['model', 'max_tokens', 'system', 'tools', 'tool_choice', 'rest'] as const) {
    if (recorded[field] !== sent[field]) return field === 'rest' ? 'another request parameter' : field;
  }
  const shorter = Math.min(recorded.messages.length, sent.messages.length);
  for (let i = 0; i < shorter; i++) if (recorded.messages[i] !== sent.messages[i]) return `messages[${i}]`;
  if (recorded.messages.length !== sent.messages.length)
    return `messages (${recorded.messages.length} recorded, ${sent.messages.length} sent)`;
  return null;
}
