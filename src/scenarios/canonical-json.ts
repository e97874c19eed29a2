import { frozenMemo } from '../memo/frozen-memo.js';

/*
 * Key-order-independent JSON, the identity of a value for comparisons and fingerprints
 * (sha256 of the canonical JSON of every tool call, the plan reader's argument matching).
 * It runs several times per tool call, so it avoids the generic paths where they cost:
 * no JSON.stringify round trip for strings that need no escaping, an insertion sort
 * for the handful of keys a tool input has, and no second writing of a frozen value.
 */

/** Characters JSON.stringify would escape: controls, `"`, `\` and (well-formed stringify) surrogates. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Own enumerable keys in code-unit order, as `Array.prototype.sort` orders strings. */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** JSON with every object's keys sorted; `undefined` members are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  return canonicalObject(value);
}

/*
 * Tool inputs carry the same frozen values call after call (a record the model read from
 * a remembered parse, passed on to transform_record, the transform passed on to
 * write_result): their text is written once, remembered by identity.
 */
const canonicalObject = frozenMemo((value: object): string => {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of sortedKeys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${quote(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
});

/**
 * `canonicalJson({ name, input })`, the identity of a tool call, without building the
 * pair: it is read for every call. `input` sorts before `name`, and an undefined input
 * is left out, as canonicalJson leaves it out.
 */
export function canonicalCall(name: string, input: unknown): string {
  const quotedName = quote(name);
  return input === undefined ? `{"name":${quotedName}}` : `{"input":${canonicalJson(input)},"name":${quotedName}}`;
}
