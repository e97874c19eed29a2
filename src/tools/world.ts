import { deepFreeze } from '../memo/frozen-json.js';

/**
 * JSON values as tools exchange them.
 *
 * @example
 * const record: Json = { id: 'u_1', tags: ['a', 'b'], active: true };
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface OutboxEntry {
  readonly key: string;
  readonly value: Json;
}

/**
 * The small world a scenario's tools read and write. A run is judged on the world it
 * leaves behind, never on what the model says about it.
 *
 * @example
 * const world: World = { records: { users: { u_1: { id: 'u_1' } } }, outbox: [] };
 * world.outbox.push({ key: 'profile:u_1', value: { id: 'u_1' } });
 */
export interface World {
  /** Collections of records by id, e.g. `records.users.u_1042`. */
  readonly records: Record<string, Record<string, Json>>;
  /** Every write, in order; a write that happens twice appears twice. */
  readonly outbox: OutboxEntry[];
}

const shared = new WeakMap<object, World['records']>();

/**
 * A fresh world from a scenario's starting state: a new, empty outbox, and the records,
 * which tools only read (every write goes to the outbox), shared by every run of the
 * scenario and frozen, so a tool that tried to change them would throw rather than leak
 * into other runs.
 */
export function createWorld(start: { records: Record<string, Record<string, Json>> }): World {
  let records = shared.get(start.records);
  if (records === undefined) {
    records = deepFreeze(structuredClone(start.records));
    shared.set(start.records, records);
  }
  return { records, outbox: [] };
}
