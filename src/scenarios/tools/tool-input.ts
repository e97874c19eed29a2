import { invalidInput } from '../../tools/tool-error.js';
import type { Json, World } from '../../tools/world.js';

export function requireString(input: Record<string, unknown>, field: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidInput(`'${field}' must be a non-empty string`);
  }
  return value;
}

/** One collection of the world's records, e.g. `users`; empty when the scenario has none. */
export function collection(world: World, name: string): Record<string, Json> {
  return world.records[name] ?? {};
}

export function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
