import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { textMemo } from '../../memo/text-memo.js';
import { tryParseJson } from '../../scenarios/parse-json.js';
import type { Json } from '../../tools/world.js';
import {
  readErrorStatus,
  readRefusal,
  readRetryHint,
  type Refusal,
  saysMayHaveApplied,
  saysNothingFound,
  saysWithheld,
} from './vocabulary.js';

/**
 * What a result says, as a reader of its words would take it. These are the cues a real
 * model reacts to; the simulated model sees nothing else of the harness. The words are
 * read in vocabulary.ts.
 */
export type ResultView =
  | { readonly kind: 'good'; readonly value: Json }
  /** A well-formed answer that says it found nothing ("No results found"). */
  | { readonly kind: 'empty'; readonly text: string }
  | { readonly kind: 'malformed'; readonly text: string }
  | {
      readonly kind: 'error';
      readonly text: string;
      /** Advice on sending the same call again, in the error's words. */
      readonly hint: 'permanent' | 'transient' | 'none';
      /** What the error is, read without advice: a client error, a passing one, or neither. */
      readonly status: 'permanent' | 'transient' | 'unknown';
      readonly mayHaveApplied: boolean;
    }
  /** The harness did not run the call: a repeat refused, or a call past a limit. Not a failure of the task. */
  | { readonly kind: 'refused'; readonly by: Refusal }
  | { readonly kind: 'missing' };

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** A result block as the model reads it; a call with no result yet is `missing`. */
export function viewResult(block: ToolResultBlockParam | undefined): ResultView {
  return block === undefined ? { kind: 'missing' } : readResult(block);
}

const OPENS_WITH_ERROR = /^error/i;
/** A body that opens as JSON is a tool's answer (whole or cut off), never a harness's words. */
const OPENS_AS_JSON = /^\s*[[{]/;

/** How much text a mark around a tool's answer may take, on either side. */
const MARK_LIMIT = 80;

/**
 * The JSON a marked answer holds: a whole value between short text on either side
 * (`<<{...}>>`, `<tool_output>[...]</tool_output>`, `BEGIN TOOL OUTPUT {...} END`), as a
 * harness that spotlights tool output writes it; a model reads through any such marks.
 * Null when the text holds no such value (a body cut off mid-way has no closing bracket).
 */
function markedJson(text: string): string | null {
  const start = text.search(/[[{]/);
  if (start < 0 || start > MARK_LIMIT) return null;
  const end = text.lastIndexOf(text[start] === '{' ? '}' : ']');
  if (end <= start || text.length - 1 - end > MARK_LIMIT) return null;
  return text.slice(start, end + 1);
}

function readResult(block: ToolResultBlockParam): ResultView {
  const text = resultText(block);
  // A result flagged as an error is read as one (unless it says the call was not run)
  // whatever its words; any other result is a reading of its text alone.
  return block.is_error === true ? flaggedView(text) : viewOfText(text);
}

/** An error's words as the model takes them: whether they say to retry, and whether the write may have happened. */
export function errorView(text: string): ResultView {
  return {
    kind: 'error',
    text,
    hint: readRetryHint(text),
    status: readErrorStatus(text),
    mayHaveApplied: saysMayHaveApplied(text),
  };
}

const REFUSED: Readonly<Record<Refusal, ResultView>> = Object.freeze({
  repeat: Object.freeze({ kind: 'refused', by: 'repeat' }),
  limit: Object.freeze({ kind: 'refused', by: 'limit' }),
});

/** Who refused the call a result answers, if its words say it was not run; null for a result of a call that ran. */
export function refusalIn(text: string): Refusal | null {
  const view = flaggedView(text);
  return view.kind === 'refused' ? view.by : null;
}

/** A refusal, if prose says the call was not run. */
function refusalView(text: string): ResultView | null {
  if (OPENS_AS_JSON.test(text)) return null;
  const refusal = readRefusal(text);
  return refusal === null ? null : REFUSED[refusal];
}

/**
 * A flagged result's reading, remembered by its text: the few error bodies of a run's
 * faults and guards come back call after call, and reading one takes several searches.
 */
const flaggedView = textMemo(
  (text: string): ResultView => refusalView(text) ?? Object.freeze(errorView(text)),
  1_000_000,
);

/**
 * A result's reading from its text, remembered by the text: the reading is a pure
 * function of the text, and tools answer with the same few bodies call after call and
 * run after run, where reading one took several regular expressions (one a search of the
 * whole body) and a parse lookup. The views are frozen, as the parsed values in them
 * already are, so sharing one between calls and runs cannot carry a change across;
 * bounded by characters of text held (textMemo).
 */
const viewOfText = textMemo((text: string): ResultView => {
  const refused = refusalView(text);
  if (refused !== null) return refused;
  if (OPENS_WITH_ERROR.test(text)) return Object.freeze(errorView(text));
  let parse = tryParseJson(text);
  if (!parse.ok) {
    const inner = markedJson(text);
    if (inner !== null) parse = tryParseJson(inner);
  }
  // A notice that the answer was held back has nothing to read: the step failed, as an error does.
  if (!parse.ok && saysWithheld(text)) return Object.freeze(errorView(text));
  if (!parse.ok) return Object.freeze({ kind: 'malformed', text });
  return Object.freeze(saysNothingFound(text) ? { kind: 'empty', text } : { kind: 'good', value: parse.value });
}, 4_000_000);
