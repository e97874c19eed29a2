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

/** A fresh, independent world from a scenario's starting state. */
export function createWorld(start: { records: Record<string, Record<string, Json>> }): World {
  return { records: structuredClone(start.records), outbox: [] };
}

/** Key-order-independent JSON, the identity of a value for comparisons and fingerprints. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
