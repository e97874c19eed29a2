import type { Json } from '../tools/world.js';

/**
 * A reference in a task plan's arguments to an earlier step's result: `$fetch` is the
 * whole result of step `fetch`, `$order.items.0.sku` a part of it.
 */
export interface StepReference {
  readonly step: string;
  /** Object keys and array indices into the result; empty for the whole result. */
  readonly path: readonly string[];
}

const REFERENCE = /^\$([a-z][a-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)$/;

/** Any string starting with `$` is meant as a reference. */
export function isReference(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('$');
}

/** The reference a `$...` string spells, or null when it is not well formed. */
export function parseReference(text: string): StepReference | null {
  const match = REFERENCE.exec(text);
  if (match === null) return null;
  const [, step = '', path = ''] = match;
  return { step, path: path === '' ? [] : path.slice(1).split('.') };
}

/** The part of a result a path names, or undefined when the result has no such part. */
export function atPath(value: Json, path: readonly string[]): Json | undefined {
  let current: Json | undefined = value;
  for (const part of path) {
    if (Array.isArray(current)) current = /^\d+$/.test(part) ? current[Number(part)] : undefined;
    else if (typeof current === 'object' && current !== null)
      current = Object.hasOwn(current, part) ? current[part] : undefined;
    else return undefined;
  }
  return current;
}

/** Every `$...` string inside a value, at any depth, with its dotted field path. */
export function referencesIn(value: unknown, field: string): Array<{ readonly field: string; readonly text: string }> {
  if (isReference(value)) return [{ field, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => referencesIn(item, `${field}.${i}`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => referencesIn(item, `${field}.${key}`));
  }
  return [];
}
