/** JSON values as tools exchange them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface OutboxEntry {
  readonly key: string;
  readonly value: Json;
}

/**
 * The small world a scenario's tools read and write. A run is judged on the world it
 * leaves behind, never on what the model says about it.
 */
export interface World {
  /** Collections of records by id, e.g. `records.users.u_1042`. */
  readonly records: Record<string, Record<string, Json>>;
  /** Every write, in order; a write that happens twice appears twice. */
  readonly outbox: OutboxEntry[];
}

const startText = new WeakMap<object, string>();

/**
 * A fresh, independent world from a scenario's starting state: a deep copy, made by
 * parsing the start state's JSON (kept per scenario), several times faster than
 * structuredClone for these small trees.
 */
export function createWorld(start: { records: Record<string, Record<string, Json>> }): World {
  let text = startText.get(start.records);
  if (text === undefined) {
    text = JSON.stringify(start.records);
    startText.set(start.records, text);
  }
  return { records: JSON.parse(text) as World['records'], outbox: [] };
}

/** Key-order-independent JSON, the identity of a value for comparisons and fingerprints. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // One string built in place: this runs for every tool call (repeat fingerprints).
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}
