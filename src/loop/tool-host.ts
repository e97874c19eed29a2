import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { MaybePromise } from '../tools/maybe-promise.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { OutputSchema } from '../tools/output-contract.js';
import type { ReadBack } from '../tools/read-back.js';

/**
 * What the loop needs to know about a tool beyond its definition.
 *
 * @example
 * const traits: ToolTraits = { sideEffecting: true, concurrencySafe: false }; // a write: never retried automatically
 */
export interface ToolTraits {
  /** Writes to the world; never retried automatically. */
  readonly sideEffecting: boolean;
  /** May run alongside other calls of the same turn. */
  readonly concurrencySafe: boolean;
  /** What its answers look like, when the tool declares it (output contracts hold answers to it). */
  readonly outputSchema?: OutputSchema;
  /** For a write: the read that shows whether a call of it took effect (write verification). @default none declared */
  readonly readBack?: ReadBack;
}

/**
 * The tools a loop can call. The loop never sees the world or the fault injector behind
 * it; the benchmark's host wraps scenario tools in flaky wrappers.
 *
 * @example
 * const tools: ToolHost = {
 *   definitions: [{ name: 'get_user', description: 'Fetch a user', input_schema: { type: 'object', properties: { id: { type: 'string' } } } }],
 *   traits: (name) => (name === 'get_user' ? { sideEffecting: false, concurrencySafe: true } : undefined),
 *   execute: (name, input) => ({ kind: 'ok', content: JSON.stringify(users[String(input['id'])]), latencyMs: 40, fault: null }),
 * };
 */
export interface ToolHost {
  readonly definitions: readonly Tool[];
  traits(name: string): ToolTraits | undefined;
  /**
   * One execution of a tool; failures are values, never exceptions (a throw or a rejection
   * still becomes an error result). A synchronous tool answers with the value itself: the
   * loop then awaits nothing, which keeps simulated runs fast; an asynchronous one answers
   * with a promise, which the loop awaits before the turn's next call starts.
   */
  execute(name: string, input: Record<string, unknown>): MaybePromise<ToolExecution>;
}
