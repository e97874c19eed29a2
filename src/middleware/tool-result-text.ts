import { tryParseJson } from '../scenarios/parse-json.js';

/**
 * What a user's tool returned, as the text the guards read (error classification takes a
 * result that is not JSON for a body cut off in transit). A text that starts like JSON
 * (`{` or `[` after whitespace) stays as it is, whole or not: one that does not parse is
 * a cut-off body, a transient failure. Any other text is a success as it is, handed to
 * the guards JSON-quoted when it is not JSON itself so that it reads as a whole answer;
 * anything else is JSON-stringified.
 *
 * @example
 * toolResultText('{"id": 1') // '{"id": 1' (cut off: malformed, retried if read-only)
 * toolResultText('Order 7 shipped.') // '"Order 7 shipped."' (a success)
 * toolResultText({ id: 1 }) // '{"id":1}'
 */
export function toolResultText(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? 'null';
  if (/^\s*[[{]/.test(value)) return value;
  return tryParseJson(value).ok ? value : JSON.stringify(value);
}
