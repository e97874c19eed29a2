import type { ToolError } from './tool-error.js';
import type { FaultKind } from './tool-fault.js';

/** What one execution of a tool came to, before any classification. */
export type ToolExecution =
  | { readonly kind: 'ok'; readonly content: string; readonly latencyMs: number; readonly fault: FaultKind | null }
  | { readonly kind: 'error'; readonly error: ToolError; readonly latencyMs: number; readonly fault: FaultKind | null };
