import { createHash } from 'node:crypto';
import type { MessageParam, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { RunMetrics } from './outcome.js';

/**
 * The safe boundaries a run is checkpointed at. A run can be resumed from the first
 * three; the last three end it (`final_response`, a `human_pause` waiting for a person,
 * or any other end), and resuming after them is refused.
 */
export const CHECKPOINT_BOUNDARIES = [
  'user_input',
  'model_response',
  'tool_results',
  'final_response',
  'human_pause',
  'run_ended',
] as const;
export type CheckpointBoundary = (typeof CHECKPOINT_BOUNDARIES)[number];

export const RESUMABLE_BOUNDARIES: ReadonlySet<CheckpointBoundary> = new Set([
  'user_input',
  'model_response',
  'tool_results',
]);

/** What a checkpoint records of the run at a boundary. */
export interface CheckpointState {
  /** The transcript; only messages not already persisted are written. */
  readonly messages: readonly MessageParam[];
  readonly metrics: RunMetrics;
  /** Virtual ms. */
  readonly at: number;
}

/** A tool call as the idempotency envelope knows it. */
export type EnvelopeEntry =
  | { readonly state: 'started' }
  | { readonly state: 'completed'; readonly block: ToolResultBlockParam };

/**
 * The loop's port to durable storage for one run: checkpoints at safe boundaries and the
 * idempotency envelope of tool calls, keyed by (run, tool_call_id). `CheckpointStore` in
 * src/durability/ implements it, in a journal file or in memory.
 */
export interface RunDurability {
  checkpoint(boundary: CheckpointBoundary, state: CheckpointState): void;
  /** The envelope's entry for a call of this run, if it was ever started. */
  toolCall(id: string): EnvelopeEntry | undefined;
  /** Recorded before the tool runs. */
  startToolCall(call: ToolUseBlock, at: number): void;
  /** Recorded once the tool has run, before its result is used. */
  completeToolCall(id: string, block: ToolResultBlockParam, at: number): void;
}

/** A run as its last checkpoint left it, to resume from. */
export interface SavedRun {
  readonly messages: readonly MessageParam[];
  readonly metrics: RunMetrics;
  readonly at: number;
  readonly boundary: CheckpointBoundary;
  /** sha256 of the system prompt the run was started with. */
  readonly systemHash: string;
}

export function systemPromptHash(system: string | undefined): string {
  return createHash('sha256')
    .update(system ?? '')
    .digest('hex');
}
