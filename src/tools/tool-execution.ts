import type { ToolError } from './tool-error.js';
import type { FaultKind } from './tool-fault.js';

/**
 * What one execution of a tool came to, before any classification.
 *
 * @example
 * const ok: ToolExecution = { kind: 'ok', content: '{"id":"u_1"}', latencyMs: 40, fault: null };
 * const failed: ToolExecution = { kind: 'error', error: new ToolError('timeout', 'timed out'), latencyMs: 5000, fault: 'timeout' };
 */
export type ToolExecution =
  | { readonly kind: 'ok'; readonly content: string; readonly latencyMs: number; readonly fault: FaultKind | null }
  | { readonly kind: 'error'; readonly error: ToolError; readonly latencyMs: number; readonly fault: FaultKind | null };
