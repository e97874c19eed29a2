import type { MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { MaybePromise } from '../tools/maybe-promise.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { ToolError } from '../tools/tool-error.js';
import type { Message, ModelRequest } from '../model/model-client.js';
import type { AgentEvent } from './events.js';
import type { StreamTiming } from './streamed-reply.js';
import type { RunOutcome } from './outcome.js';
import type { ToolTraits } from './tool-host.js';

/**
 * What guards can see of the run.
 *
 * @example
 * const quiet: Guard = {
 *   name: 'quiet',
 *   beforeModelCall: (ctx: LoopContext) =>
 *     ctx.iteration >= 20 ? { kind: 'stop', outcome: { kind: 'max_iterations', iterations: ctx.iteration } } : undefined,
 * };
 */
export interface LoopContext {
  readonly clock: VirtualClock;
  readonly emit: (event: AgentEvent) => void;
  /** Tool calls the model has asked for so far, refused ones included (`RunMetrics.toolCalls`). */
  readonly toolCalls: number;
  /** Executions the tools have seen so far, automatic retries included and refused calls not (`RunMetrics.toolExecutions`). */
  readonly toolExecutions: number;
  /** What a tool declares about itself (writes to the world, may run alongside others); undefined for one the host does not provide. */
  readonly toolTraits: (name: string) => ToolTraits | undefined;
  /** Model calls made so far. */
  readonly iteration: number;
  readonly messages: readonly MessageParam[];
}

/** Before a model call: take one last turn without tools, or stop now. */
export type BeforeModelDecision =
  | { readonly kind: 'final_turn'; readonly message: string; readonly outcome: FinalTurnOutcome }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/** How a run that took a last turn without tools ends: the budget ran out, or the soft time limit passed. */
export type FinalTurnOutcome = 'budget_exhausted' | 'timed_out';

/**
 * After a turn's tool results are in: add words for the model to the results message
 * (a nudge), optionally forcing its next call to one tool through `tool_choice`, or stop.
 */
export type BatchDecision =
  | { readonly kind: 'intervene'; readonly message: string; readonly forceTool?: string }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/**
 * After a reply arrives, record `reply` in its place (e.g. without a tool call the output
 * limit cut off), and either go on with it as usual (`replace`) or send `message` as the
 * next user turn instead of running its tools (`continue`).
 */
export type ReplyDecision =
  | { readonly kind: 'replace'; readonly reply: Message }
  | { readonly kind: 'continue'; readonly reply: Message; readonly message: string };

/** Arguments a model sent as text (the OpenAI-compatible edge), read as an object or not at all. */
export type ArgumentParse =
  | { readonly ok: true; readonly value: Record<string, unknown>; readonly strategy: string }
  | { readonly ok: false; readonly reason: string };

/** Before a tool call: answer it without running it, or stop the run. */
export type ToolCallDecision =
  | { readonly kind: 'answer'; readonly content: string; readonly isError: boolean }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/**
 * One model call as a value: the reply, the error the client threw (the run fails on it
 * unless a guard recovers), or a guard's decision to end the run.
 */
export type ModelCallResult =
  /**
   * `messages`: set by a wrapper that answered with a different transcript (e.g. compacted after a 413); the loop adopts it.
   * `timing`: the reply was streamed, and this is when each of its blocks ended (wrappers pass it on as it is).
   */
  | {
      readonly kind: 'reply';
      readonly message: Message;
      readonly messages?: readonly MessageParam[];
      readonly timing?: StreamTiming;
    }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/** Sends one request to the model (through the guards inside this one). */
export type SendModelRequest = (request: ModelRequest) => Promise<ModelCallResult>;

export interface ExecutionContext extends LoopContext {
  readonly call: ToolUseBlock;
  readonly traits: ToolTraits;
  /**
   * Runs one call of another of the host's tools on this call's behalf (a read-back after
   * a write): it meets that tool's faults, takes its time and counts as an execution of
   * this call. Undefined where the guard does not own the tools (the framework middleware).
   */
  readonly execute?: (tool: string, input: Record<string, unknown>) => MaybePromise<ToolExecution>;
}

/**
 * A safeguard. Each hook is optional; a guard implements the points it needs. Decisions
 * are values, never exceptions. Guards hold per-run state, so build them per run.
 *
 * @example
 * // Refuse every call of one tool, answering the model instead of running it.
 * const noDeletes: Guard = {
 *   name: 'no-deletes',
 *   beforeToolCall: (call) =>
 *     call.name === 'delete_record' ? { kind: 'answer', content: 'Deleting is not allowed.', isError: true } : undefined,
 * };
 */
export interface Guard {
  readonly name: string;
  /** Tools this guard offers the model in addition to the scenario's. */
  readonly tools?: readonly Tool[];
  beforeModelCall?(ctx: LoopContext): BeforeModelDecision | undefined;
  /**
   * Shapes the next request just before it is sent (fix the message order, raise
   * `max_tokens`); returns it unchanged when there is nothing to do. New `messages`
   * become the loop's transcript. Message objects are never edited in place: readings
   * are cached per message.
   */
  prepareRequest?(request: ModelRequest, ctx: LoopContext): ModelRequest | Promise<ModelRequest>;
  /**
   * Wraps one model call (e.g. retries, a fallback model); `next` sends a request, which
   * the guard may change (its `model`), and may be called again. Wrappers nest in guard
   * order: the first guard's is innermost, nearest the model.
   */
  aroundModelCall?(ctx: LoopContext, request: ModelRequest, next: SendModelRequest): Promise<ModelCallResult>;
  afterModelReply?(reply: Message, ctx: LoopContext): ReplyDecision | undefined;
  /** Reads arguments that arrived as a string; without such a guard the loop parses them strictly. */
  parseArguments?(raw: string, call: ToolUseBlock, ctx: LoopContext): ArgumentParse;
  beforeToolCall?(call: ToolUseBlock, ctx: LoopContext): ToolCallDecision | undefined;
  /**
   * Wraps the executions of one tool call (e.g. retries); `next` runs one execution. `next`
   * answers synchronously when every layer under it does, so a wrapper that passes a value
   * on as a value (and a promise on as a promise) keeps synchronous tools free of promises.
   */
  aroundExecution?(ctx: ExecutionContext, next: () => MaybePromise<ToolExecution>): MaybePromise<ToolExecution>;
  /** How a failed call is worded for the model. */
  describeError?(error: ToolError, ctx: ExecutionContext): string;
  afterToolBatch?(ctx: LoopContext): BatchDecision | undefined;
  /** Concurrency-safe calls of one turn run together: the turn costs the slowest, not the sum. */
  readonly concurrentTools?: boolean;
}
