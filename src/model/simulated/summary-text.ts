import { textMemo } from '../../memo/text-memo.js';
import { canonicalJson } from '../../scenarios/canonical-json.js';
import type { Json } from '../../tools/world.js';

/**
 * The words of a compacted transcript, as the simulated model writes and reads them: its
 * own summaries (one line per tool call it was told of), the results a harness pins
 * verbatim after a summary, and the notice a harness leaves when it drops messages
 * without a summary. Reading is by these words alone, as a real model reads a summary:
 * whatever the text does not say, the reader does not know.
 */

/** First line of a summary the simulated model writes; `(covers N turns)` follows. */
export const SUMMARY_HEADER = 'Summary of the earlier conversation';
const TASK_PREFIX = 'Task: ';
const CALLS_HEADING = 'Tool calls and what they established:';

/** A tool call a summary or a pin tells of. */
export type RecalledCall =
  | { readonly kind: 'succeeded'; readonly name: string; readonly input: Record<string, unknown>; readonly facts: Json }
  | { readonly kind: 'failed'; readonly name: string; readonly input: Record<string, unknown>; readonly error: string };

/** What the first message of a compacted transcript says about the part it replaced. */
export interface Recollection {
  /** Assistant turns the replaced part held (they still count toward the turn index). */
  readonly coveredTurns: number;
  /** The task as the summary states it, or null. */
  readonly task: string | null;
  /** The summary's lines, oldest first. */
  readonly calls: readonly RecalledCall[];
  /** Entries of a run journal shown after the summary (their call lines are in `calls` too). */
  readonly journaled: readonly string[];
  /** Results kept verbatim after the summary: tool, arguments and the result text. */
  readonly pinned: readonly { readonly name: string; readonly input: Record<string, unknown>; readonly text: string }[];
}

/** Longest value a summary (or a journal entry) keeps of a result; longer ones (document bodies, tables) are left out. */
const FACT_CHARS = 200;

/** The short facts of a result: fields whose value is short, or the whole value if it is. */
export function factsOf(value: Json): Json {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).filter(([, field]) => canonicalJson(field).length <= FACT_CHARS));
  }
  return canonicalJson(value).length <= FACT_CHARS ? value : null;
}

/** Lines of a summary's call list. */
export function formatCall(call: RecalledCall): string {
  const head = `- ${call.name} ${canonicalJson(call.input as Json)}`;
  return call.kind === 'succeeded'
    ? `${head} succeeded: ${canonicalJson(call.facts)}`
    : `${head} failed: ${call.error}`;
}

/** The whole summary text, before any output limit cuts it. */
export function formatSummary(coveredTurns: number, task: string | null, calls: readonly RecalledCall[]): string {
  const lines = [`${SUMMARY_HEADER} (covers ${coveredTurns} turns).`];
  if (task !== null) lines.push(`${TASK_PREFIX}${task}`);
  lines.push(CALLS_HEADING, ...calls.map(formatCall));
  return lines.join('\n');
}

/** Index just past the JSON object or array starting at `start` (string escapes respected), or -1. */
function jsonEnd(text: string, start: number): number {
  const open = text[start];
  if (open !== '{' && open !== '[') return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One call line, or null for anything else (a line the output limit cut is not a call). */
export function parseCall(line: string): RecalledCall | null {
  const match = /^- ([A-Za-z0-9_-]+) /.exec(line);
  if (match === null) return null;
  const name = match[1]!;
  const start = match[0].length;
  const end = jsonEnd(line, start);
  const input = end === -1 ? undefined : parseJson(line.slice(start, end));
  if (!isObject(input)) return null;
  const rest = line.slice(end);
  if (rest.startsWith(' succeeded: ')) {
    const facts = parseJson(rest.slice(' succeeded: '.length));
    return facts === undefined ? null : { kind: 'succeeded', name, input, facts };
  }
  if (rest.startsWith(' failed: ')) return { kind: 'failed', name, input, error: rest.slice(' failed: '.length) };
  return null;
}

/** Opening of a result a harness pins after a summary: `Result of <tool> <arguments> (kept verbatim):`. */
const PIN_OPEN = /^Result of ([A-Za-z0-9_-]+) (\{.*\}) \(kept verbatim\):$/;
const PIN_CLOSE = '(end of result)';
/** A harness's notice for messages it dropped without a summary: `[N earlier turns were dropped ...`. */
const DROPPED = /(\d+) earlier turns? (?:was|were) dropped/;
const COVERS = /\(covers (\d+) turns?\)/;
/** The first line of a run journal a harness shows; its `- ` entries the model wrote as call lines. */
const JOURNAL_HEADING = 'Run journal';

const recollections = new WeakMap<object, Recollection | null>();

/**
 * Whether a text has any mark of a summary, a pin, a drop notice or a journal, by the
 * text: most first messages are a task statement, the same few texts run after run, so
 * the common answer (none) is known without a reading per message object. A boolean of
 * the text alone: a pure memo, bounded by its characters.
 */
const marksRecollection = textMemo(
  (text) =>
    text.includes(SUMMARY_HEADER) || DROPPED.test(text) || text.includes(PIN_CLOSE) || text.includes(JOURNAL_HEADING),
  1_000_000,
);

/**
 * What a compacted transcript's first message says, or null when it is not a summary, a
 * pin or a drop notice. Read once per message object (messages never change).
 */
export function readRecollection(text: string, cacheKey: object): Recollection | null {
  if (!marksRecollection(text)) return null;
  const cached = recollections.get(cacheKey);
  if (cached !== undefined) return cached;
  const recollection = parseRecollection(text);
  recollections.set(cacheKey, recollection);
  return recollection;
}

/** The recollection in a text that marksRecollection found marked. */
function parseRecollection(text: string): Recollection {
  const covers = COVERS.exec(text);
  const dropped = DROPPED.exec(text);
  const calls: RecalledCall[] = [];
  const pinned: { name: string; input: Record<string, unknown>; text: string }[] = [];
  const journaled: string[] = [];
  let task: string | null = null;
  let inJournal = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (task === null && line.startsWith(TASK_PREFIX)) task = line.slice(TASK_PREFIX.length);
    if (line.startsWith(JOURNAL_HEADING)) inJournal = true;
    const call = parseCall(line);
    if (call !== null) {
      calls.push(call);
      if (inJournal) journaled.push(line.slice(2));
      continue;
    }
    const pin = PIN_OPEN.exec(line);
    const input = pin === null ? undefined : parseJson(pin[2]!);
    if (pin === null || !isObject(input)) continue;
    const close = lines.indexOf(PIN_CLOSE, i + 1);
    if (close === -1) continue;
    pinned.push({ name: pin[1]!, input, text: lines.slice(i + 1, close).join('\n') });
    i = close;
  }
  const coveredTurns = Number(covers?.[1] ?? dropped?.[1] ?? 0);
  return { coveredTurns, task, calls, journaled, pinned };
}
