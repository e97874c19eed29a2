import { textMemo } from '../memo/text-memo.js';
import { deepFreeze } from '../memo/frozen-json.js';
import type { Json } from '../tools/world.js';

export type JsonParse = { readonly ok: true; readonly value: Json } | { readonly ok: false };

/**
 * JSON.parse as a value. Cut-off tool bodies are common by design (malformed_json
 * faults), and a SyntaxError's stack trace, never read here, costs more than the parse:
 * the error is made without one.
 *
 * A body is parsed where the executor checks it and again where the model reads it, and
 * a scenario's tools answer with the same few bodies run after run, so parses are
 * remembered by their text. A remembered value is shared, so it is frozen: code that
 * would change it must copy it (a write throws; it never reaches another run).
 */
export const tryParseJson: (text: string) => JsonParse = textMemo(parse, 4_000_000);

function parse(text: string): JsonParse {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return { ok: true, value: deepFreeze(JSON.parse(text) as Json) };
  } catch {
    return { ok: false };
  } finally {
    Error.stackTraceLimit = limit;
  }
}
