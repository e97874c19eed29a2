import { jsonrepair } from 'jsonrepair';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { ArgumentParse, Guard } from '../guard.js';

/** How a text of arguments was read, in the order the strategies are tried. */
export type ArgumentStrategy =
  | 'direct'
  | 'double_encoded'
  | 'strip_fences'
  | 'balanced_block'
  | 'trailing_commas'
  | 'jsonrepair';

export interface ArgumentRepairOptions {
  /**
   * Let jsonrepair complete a text that is cut off (an object never closed). Off by
   * default: completing `{"key": "u_10` yields `{"key": "u_10"}`, a call with a value the
   * model never wrote, which for a write is worse than an error the model can act on.
   * @default false
   */
  readonly repairTruncated?: boolean;
}

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const FENCE = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/;

/** The inside of the first Markdown code fence, or null when the text has none. An unclosed fence runs to the end. */
export function stripFences(text: string): string | null {
  const match = FENCE.exec(text);
  return match === null ? null : (match[1] ?? '').trim();
}

export type BalancedBlock =
  | { readonly kind: 'found'; readonly text: string }
  /** An object opens and never closes: the text was cut off. */
  | { readonly kind: 'unclosed'; readonly depth: number }
  | { readonly kind: 'none' };

/**
 * The first balanced `{...}` block of a text. Brackets inside strings do not count, and a
 * backslash escapes the next character there (`"a \" }"` is one string). Single-quoted
 * strings count as strings too: inside the block they can only be strings a model wrote
 * Python-style, which jsonrepair fixes later.
 */
export function firstBalancedBlock(text: string): BalancedBlock {
  const start = text.indexOf('{');
  if (start === -1) return { kind: 'none' };
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote !== null) {
      if (ch === '\\') i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') depth += 1;
    else if (ch === '}' || ch === ']') {
      depth -= 1;
      if (depth === 0) return { kind: 'found', text: text.slice(start, i + 1) };
    }
  }
  return { kind: 'unclosed', depth };
}

/** The text without commas that directly precede a closing `}` or `]`, outside strings. */
export function stripTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\' && i + 1 < text.length) out += text[++i];
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j += 1;
      if (text[j] === '}' || text[j] === ']') continue;
    }
    out += ch;
  }
  return out;
}

/**
 * Reads arguments sent as text, trying each strategy in turn: direct JSON.parse (and a
 * JSON string holding the object, double-encoded), the inside of a code fence, the first
 * balanced `{...}` block (prose around it), that block without trailing commas, then
 * jsonrepair (single quotes, Python literals, unquoted keys, comments). Each strategy
 * narrows the text the next one starts from. Only an object counts.
 */
export function repairArguments(raw: string, options: ArgumentRepairOptions = {}): ArgumentParse {
  const ok = (value: unknown, strategy: ArgumentStrategy): ArgumentParse | null =>
    isObject(value) ? { ok: true, value, strategy } : null;
  const direct = tryParse(raw);
  if (direct.ok) {
    const found = ok(direct.value, 'direct');
    if (found !== null) return found;
    // A JSON string holding the object: a client that encoded the arguments twice.
    if (typeof direct.value === 'string') {
      const inner = tryParse(direct.value);
      if (inner.ok)
        return ok(inner.value, 'double_encoded') ?? { ok: false, reason: 'the arguments are JSON but not an object' };
    }
    return { ok: false, reason: 'the arguments are JSON but not an object' };
  }

  let text = raw;
  const fenced = stripFences(raw);
  if (fenced !== null) {
    text = fenced;
    const parsed = tryParse(text);
    if (parsed.ok && isObject(parsed.value)) return { ok: true, value: parsed.value, strategy: 'strip_fences' };
  }

  const block = firstBalancedBlock(text);
  if (block.kind === 'unclosed') {
    // Completing it would invent the rest of a value; the model can send the call again.
    if (options.repairTruncated !== true)
      return { ok: false, reason: `the JSON is cut off: ${block.depth} bracket(s) never closed` };
    text = text.slice(text.indexOf('{'));
  }
  if (block.kind === 'found') {
    text = block.text;
    const parsed = tryParse(text);
    if (parsed.ok && isObject(parsed.value)) return { ok: true, value: parsed.value, strategy: 'balanced_block' };
    const stripped = stripTrailingCommas(text);
    const withoutCommas = stripped === text ? null : tryParse(stripped);
    if (withoutCommas?.ok === true && isObject(withoutCommas.value))
      return { ok: true, value: withoutCommas.value, strategy: 'trailing_commas' };
  }

  let repaired: string;
  try {
    repaired = jsonrepair(text);
  } catch (error) {
    return { ok: false, reason: `not repairable as JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = tryParse(repaired);
  if (parsed.ok && isObject(parsed.value)) return { ok: true, value: parsed.value, strategy: 'jsonrepair' };
  return { ok: false, reason: 'the repaired text is not a JSON object' };
}

/**
 * Resilient reading of tool arguments that arrive as text (the OpenAI-compatible edge):
 * direct, strip code fences, first balanced JSON block, strip trailing commas, then
 * jsonrepair. The strategy that worked is reported on the `agent.tool.arguments` event;
 * a text that still cannot be read is an error result the model can act on, never `{}`.
 *
 * @example
 * argumentRepair()                            // cut-off JSON stays an error
 * argumentRepair({ repairTruncated: true })   // let jsonrepair close it
 */
export function argumentRepair(options: ArgumentRepairOptions = {}): Guard {
  const resolved = Object.freeze({
    repairTruncated: options.repairTruncated ?? argumentRepairGuard.defaults.repairTruncated,
  });
  return {
    name: 'repair',
    parseArguments: (raw) => repairArguments(raw, resolved),
  };
}

/** Argument repair in an arm: cut-off JSON stays an error by default. */
export const argumentRepairGuard = defineGuard({
  name: 'repair',
  settings: z.strictObject({ repairTruncated: z.boolean().default(false) }),
  events: ['agent.tool.arguments'],
  build: (settings) => argumentRepair(settings),
});
