import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { invalidInput } from '../../faults/tool-errors.js';
import type { Json, World } from '../world.js';

/** A tool a scenario can offer, by name. Handlers are plain functions of (input, world). */
export interface ToolSpec {
  readonly definition: Tool;
  /** Writes to the world; never retried automatically. */
  readonly sideEffecting: boolean;
  /** May run alongside other calls of the same turn. */
  readonly concurrencySafe: boolean;
  /** Virtual time a successful call takes. */
  readonly latencyMs: number;
  /**
   * Returns the tool's JSON result or throws a ToolError. The world's records and the
   * input may be frozen and shared with other runs (see createWorld, tryParseJson): a
   * handler reads them, writes only to the outbox, and copies what it would change.
   */
  run(input: Record<string, unknown>, world: World): Json;
}

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
