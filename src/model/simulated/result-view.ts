import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { textMemo } from '../../memo/text-memo.js';
import { tryParseJson } from '../../scenarios/parse-json.js';
import type { Json } from '../../scenarios/world.js';

/**
 * What a result says, as a reader of its words would take it. These are the cues a real
 * model reacts to; the simulated model sees nothing else of the harness.
 */
export type ResultView =
  | { readonly kind: 'good'; readonly value: Json }
  /** A well-formed answer that says it found nothing ("No results found"). */
  | { readonly kind: 'empty'; readonly text: string }
  | { readonly kind: 'malformed'; readonly text: string }
  | {
      readonly kind: 'error';
      readonly text: string;
      readonly hint: 'permanent' | 'transient' | 'none';
      readonly mayHaveApplied: boolean;
    }
  | { readonly kind: 'reflection' }
  | { readonly kind: 'missing' };

const REFLECTION_CUE = 'you just called the same tool with identical arguments';
const PERMANENT_CUE = 'do not retry with the same arguments';
const TRANSIENT_CUE = 'may succeed if retried';
const APPLIED_CUE = 'may have been applied';
const EMPTY_CUE = 'no results';

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

/**
 * The cues a result opens with and the words of an empty answer, matched in any case.
 * Regular expressions rather than a lowercased copy: a good result (a record, often
 * long) is not copied whole just to be told apart from an error. For these ASCII words
 * a case-insensitive match is exactly the lowercased text's `startsWith` / `includes`.
 */
const OPENS_WITH_REFLECTION = new RegExp(`^${REFLECTION_CUE}`, 'i');
const OPENS_WITH_ERROR = /^error/i;
const EMPTY_WORDS = new RegExp(EMPTY_CUE, 'i');

function readResult(block: ToolResultBlockParam): ResultView {
  const text = resultText(block);
  // A result flagged as an error is read as one (unless it is a reflection) whatever its
  // words; any other result is a reading of its text alone.
  if (block.is_error === true && !OPENS_WITH_REFLECTION.test(text)) return errorView(text);
  return viewOfText(text);
}

/** An error's words as the model takes them: whether they say to retry, and whether the write may have happened. */
export function errorView(text: string): ResultView {
  const lower = text.toLowerCase();
  const hint = lower.includes(PERMANENT_CUE) ? 'permanent' : lower.includes(TRANSIENT_CUE) ? 'transient' : 'none';
  return { kind: 'error', text, hint, mayHaveApplied: lower.includes(APPLIED_CUE) };
}

const REFLECTION_VIEW: ResultView = Object.freeze({ kind: 'reflection' });

/**
 * A result's reading from its text, remembered by the text: the reading is a pure
 * function of the text, and tools answer with the same few bodies call after call and
 * run after run, where reading one took three regular expressions (one a search of the
 * whole body) and a parse lookup. The views are frozen, as the parsed values in them
 * already are, so sharing one between calls and runs cannot carry a change across;
 * bounded by characters of text held (textMemo).
 */
const viewOfText = textMemo((text: string): ResultView => {
  if (OPENS_WITH_REFLECTION.test(text)) return REFLECTION_VIEW;
  if (OPENS_WITH_ERROR.test(text)) return Object.freeze(errorView(text));
  const parse = tryParseJson(text);
  if (!parse.ok) return Object.freeze({ kind: 'malformed', text });
  return Object.freeze(EMPTY_WORDS.test(text) ? { kind: 'empty', text } : { kind: 'good', value: parse.value });
}, 4_000_000);
