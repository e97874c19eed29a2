import { ToolError } from './tool-error.js';
import type { MetFault } from './tool-fault.js';

/**
 * What one execution of a tool came to, before any classification.
 *
 * @example
 * const ok: ToolExecution = { kind: 'ok', content: '{"id":"u_1"}', latencyMs: 40, fault: null };
 * const failed: ToolExecution = { kind: 'error', error: new ToolError('timeout', 'timed out'), latencyMs: 5000, fault: 'timeout' };
 */
export type ToolExecution =
  | { readonly kind: 'ok'; readonly content: string; readonly latencyMs: number; readonly fault: MetFault | null }
  | { readonly kind: 'error'; readonly error: ToolError; readonly latencyMs: number; readonly fault: MetFault | null };

/**
 * A tool handler's exception as a failed execution, worded as the loop words it for the
 * model (`Tool '<name>' failed: <message>`): never retried, never a crashed run.
 *
 * @example
 * handlerException('get_user', new Error('boom')).error.message // "Tool 'get_user' failed: boom"
 */
export function handlerException(tool: string, error: unknown): ToolExecution {
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'error',
    error: new ToolError('handler_exception', `Tool '${tool}' failed: ${message}`),
    latencyMs: 0,
    fault: null,
  };
}
