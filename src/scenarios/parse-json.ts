import type { Json } from './world.js';

export type JsonParse = { readonly ok: true; readonly value: Json } | { readonly ok: false };

/**
 * JSON.parse as a value. Cut-off tool bodies are common by design (malformed_json
 * faults), and a SyntaxError's stack trace, never read here, costs more than the parse:
 * the error is made without one.
 */
export function tryParseJson(text: string): JsonParse {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch {
    return { ok: false };
  } finally {
    Error.stackTraceLimit = limit;
  }
}
