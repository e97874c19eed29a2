import { createHash } from 'node:crypto';
import type { ModelRequest } from '../model/model-client.js';
import { canonicalJson } from '../scenarios/canonical-json.js';

/**
 * A request as a cassette keeps it: a digest of each part, so a replay can say which part
 * of a request differs from the recorded one (`system`, `tools`, `messages[3]`), without
 * keeping every transcript whole (a run's requests repeat its transcript call after call).
 */
export interface RequestParts {
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

/**
 * The parts of a request, each digested. `stream` is left out: a reply is the same
 * however it is delivered.
 *
 * @example
 * requestParts({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [] }).messages; // []
 */
export function requestParts(request: ModelRequest): RequestParts {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) if (!PARTS.has(key)) rest[key] = value;
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
 * The first part in which two requests differ, named as a field of the request
 * (`system`, `messages[3]`, `messages (4 recorded, 6 sent)`), or null when they are the same.
 */
export function firstDifference(recorded: RequestParts, sent: RequestParts): string | null {
  for (const field of ['model', 'max_tokens', 'system', 'tools', 'tool_choice', 'rest'] as const) {
    if (recorded[field] !== sent[field]) return field === 'rest' ? 'another request parameter' : field;
  }
  const shorter = Math.min(recorded.messages.length, sent.messages.length);
  for (let i = 0; i < shorter; i++) if (recorded.messages[i] !== sent.messages[i]) return `messages[${i}]`;
  if (recorded.messages.length !== sent.messages.length)
    return `messages (${recorded.messages.length} recorded, ${sent.messages.length} sent)`;
  return null;
}
