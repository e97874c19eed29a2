import { frozenMemo } from '../memo/frozen-memo.js';

/*
 * The length of a value's JSON text, without writing the text where its parts' lengths
 * are known. The token estimator sizes every tool call by its arguments' JSON, and the
 * simulated model's arguments are a fresh object or two around frozen values it read
 * from tool results (a whole record, passed on from step to step): those are written
 * once, remembered by identity, and the fresh levels add up their members.
 */

/** Deep frozen values never change (see frozen-memo), so neither does the length of their JSON. */
const frozenLength = frozenMemo((value: object): number => JSON.stringify(value).length);

/** Deeper than this, JSON.stringify itself answers (and throws its own error for a cycle). */
const MAX_DEPTH = 64;

/** Length of JSON.stringify(text): its own length and the quotes, unless a character needs escaping. */
function quotedLength(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    // Controls, `"`, `\` and (well-formed stringify) surrogates are escaped: let stringify count those.
    if (ch < 0x20 || ch === 0x22 || ch === 0x5c || (ch >= 0xd800 && ch <= 0xdfff)) return JSON.stringify(text).length;
  }
  return text.length + 2;
}

/** Objects whose JSON is their own members' (no toJSON, no boxed primitive, no class of its own). */
function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  const plain = Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null;
  return plain && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * `JSON.stringify(value)?.length`, exactly: undefined where stringify gives undefined
 * (undefined, a function, a symbol), and stringify's own error where it throws.
 *
 * @example
 * jsonLength({ id: 'u_1', record: frozenRecord }) // === JSON.stringify(...).length
 */
export function jsonLength(value: unknown, depth = 0): number | undefined {
  switch (typeof value) {
    case 'string':
      return quotedLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      if (value === null) return 4;
      if (depth >= MAX_DEPTH || !isPlain(value)) return JSON.stringify(value)?.length;
      if (Object.isFrozen(value)) return frozenLength(value);
      return Array.isArray(value) ? arrayLength(value, depth + 1) : objectLength(value, depth + 1);
    default:
      // A bigint: stringify throws, and so must this.
      return JSON.stringify(value)?.length;
  }
}

/** `[a,b]`: a member stringify leaves out is written `null`. */
function arrayLength(items: readonly unknown[], depth: number): number {
  let length = 1 + Math.max(0, items.length - 1) + 1;
  for (let i = 0; i < items.length; i++) length += jsonLength(items[i], depth) ?? 4;
  return length;
}

/** `{"a":1,"b":2}`: a member stringify leaves out is left out with its key and comma. */
function objectLength(record: object, depth: number): number {
  let length = 2;
  let members = 0;
  for (const key of Object.keys(record)) {
    const item = jsonLength((record as Record<string, unknown>)[key], depth);
    if (item === undefined) continue;
    length += quotedLength(key) + 1 + item;
    members += 1;
  }
  return members === 0 ? length : length + members - 1;
}
