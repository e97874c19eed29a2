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
