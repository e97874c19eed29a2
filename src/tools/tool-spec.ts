import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { MaybePromise } from './maybe-promise.js';
import type { Json, World } from './world.js';
import type { OutputSchema } from './output-contract.js';
import type { ReadBack } from './read-back.js';

/**
 * A tool a scenario can offer, by name. Handlers are plain functions of (input, world).
 *
 * @example
 * const getUser: ToolSpec = {
 *   definition: { name: 'get_user', description: 'Fetch a user by id', input_schema: { type: 'object', properties: { id: { type: 'string' } } } },
 *   sideEffecting: false,
 *   concurrencySafe: true,
 *   latencyMs: 40,
 *   run: (input, world) => world.records['users']?.[String(input['id'])] ?? null,
 * };
 */
export interface ToolSpec {
  readonly definition: Tool;
  /** Writes to the world; never retried automatically. */
  readonly sideEffecting: boolean;
  /** May run alongside other calls of the same turn. */
  readonly concurrencySafe: boolean;
  /** Virtual time a successful call takes. */
  readonly latencyMs: number;
  /** What its answers look like, for a guard that holds answers to it (output contracts). @default none declared */
  readonly outputSchema?: OutputSchema;
  /** For a write: the read that shows whether a call of it took effect (write verification). @default none declared */
  readonly readBack?: ReadBack;
  /**
   * Returns the tool's JSON result or throws a ToolError; an asynchronous tool returns a
   * promise of the result, or rejects. The world's records and the input may be frozen and
   * shared with other runs (see createWorld, tryParseJson): a handler reads them, writes
   * only to the outbox, and copies what it would change.
   */
  run(input: Record<string, unknown>, world: World): MaybePromise<Json>;
}
