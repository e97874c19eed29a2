import { jsonrepair } from 'jsonrepair';

/** Tool arguments as the model reads back what it wrote. */
export interface OwnArguments {
  readonly input: Record<string, unknown>;
  /** Written as text that is not a plain JSON object (fenced, cut off, Python-style, ...). */
  readonly garbled: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const EMPTY: OwnArguments = Object.freeze({ input: Object.freeze({}), garbled: true });

/**
 * The model reading its own earlier call. Over Chat Completions its arguments are text,
 * and a model knows what it meant even where it wrote it badly, so it reads leniently:
 * from the first `{` to the last `}` (or the end, if cut off), repaired. This is the
 * model's reading, independent of whatever the harness made of the text, which the model
 * learns only from the result.
 */
export function readOwnArguments(written: unknown): OwnArguments {
  if (typeof written !== 'string') return { input: isRecord(written) ? written : {}, garbled: false };
  try {
    const value: unknown = JSON.parse(written);
    if (isRecord(value)) return { input: value, garbled: false };
  } catch {
    // Read leniently below.
  }
  const start = written.indexOf('{');
  if (start === -1) return EMPTY;
  const end = written.lastIndexOf('}');
  try {
    const value: unknown = JSON.parse(jsonrepair(written.slice(start, end > start ? end + 1 : undefined)));
    return isRecord(value) ? { input: value, garbled: true } : EMPTY;
  } catch {
    return EMPTY;
  }
}
