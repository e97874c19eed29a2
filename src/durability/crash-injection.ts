import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { CheckpointBoundary, CheckpointState, RunDurability } from '../loop/durability.js';

/**
 * Where a simulated crash struck: right after a checkpoint; before a tool ran; after it
 * ran but before its result was recorded (mid-tool); or after the result was recorded,
 * before the turn's results were checkpointed.
 */
export type CrashPoint =
  | { readonly kind: 'checkpoint'; readonly boundary: CheckpointBoundary }
  | { readonly kind: 'before_tool' | 'mid_tool' | 'after_tool'; readonly tool: string; readonly id: string };

/**
 * The process died here. Thrown through the loop, never caught by it (the loop catches
 * only what tool handlers throw), the way a killed process leaves no chance to clean up.
 */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
  constructor(readonly point: CrashPoint) {
    super(
      `simulated crash: ${point.kind === 'checkpoint' ? `after the ${point.boundary} checkpoint` : `${point.kind.replace('_tool', '')} a ${point.tool} call`}`,
    );
  }
}

/**
 * Wraps a run's durability and counts every point where a process could die that
 * matters to a resume; with `crashAt` (1-based) it dies at that one. `inner` may be
 * null to only count and log (a run that stores nothing).
 */
export class CrashingDurability implements RunDurability {
  points = 0;
  /** Calls the loop started running (id → tool), in order: what actually executed. */
  readonly started = new Map<string, string>();
  readonly #inner: RunDurability | null;
  readonly #crashAt: number | null;

  constructor(inner: RunDurability | null, crashAt: number | null) {
    this.#inner = inner;
    this.#crashAt = crashAt;
  }

  #point(point: CrashPoint): void {
    this.points += 1;
    if (this.points === this.#crashAt) throw new SimulatedCrash(point);
  }

  checkpoint(boundary: CheckpointBoundary, state: CheckpointState): void {
    this.#inner?.checkpoint(boundary, state);
    this.#point({ kind: 'checkpoint', boundary });
  }

  toolCall(id: string) {
    return this.#inner?.toolCall(id);
  }

  startToolCall(call: ToolUseBlock, at: number): void {
    this.#inner?.startToolCall(call, at);
    this.started.set(call.id, call.name);
    this.#point({ kind: 'before_tool', tool: call.name, id: call.id });
  }

  completeToolCall(id: string, block: ToolResultBlockParam, at: number): void {
    const tool = this.started.get(id) ?? 'tool';
    // The tool has run (its side effect is in the world); the crash comes before its result is kept.
    this.#point({ kind: 'mid_tool', tool, id });
    this.#inner?.completeToolCall(id, block, at);
    this.#point({ kind: 'after_tool', tool, id });
  }
}
