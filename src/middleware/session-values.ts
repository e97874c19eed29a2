import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { RunOutcome } from '../loop/outcome.js';
import type { Message } from '../model/model-client.js';
import type { ToolExecution } from '../tools/tool-execution.js';

// The values a guard session and a framework adapter exchange (src/middleware/guard-session.ts).

/**
 * Before a model call: send it (`append` the guards' new words to the conversation for
 * good, with `toolChoice`, offering the framework's tools plus `guardTools`, and `system`
 * when a guard changed it), or end the run with `outcome`.
 */
export type TurnPlan =
  | {
      readonly kind: 'call';
      readonly append: readonly string[];
      readonly toolChoice: 'auto' | 'none' | { readonly type: 'tool'; readonly name: string };
      readonly guardTools: readonly string[];
      readonly system: string | undefined;
      /** Whether this is a last turn without tools (budget spent, soft time limit): its reply ends the run. */
      readonly finalTurn: boolean;
    }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/** One model call through the guards' wrappers: the framework's reply, the error to rethrow, or the run's end. */
export type ModelCallOutcome<R> =
  | { readonly kind: 'reply'; readonly reply: R }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/** A framework's reply as guards read it: its blocks in the Messages shape, and what else it tells (`stop_reason`, `usage`, `model`). */
export type ReadReply = { readonly content: readonly ContentBlockParam[] } & Partial<Omit<Message, 'content'>>;

/** A tool call as the framework holds it. */
export interface ToolCallInput {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** The framework's abort signal for this call (the run's cancellation), when it has one. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * What became of a tool call: it ran (`execution` is its last execution; a failure comes
 * with the guards' wording, or null for the framework's own), a guard answered it without
 * running it, or it ended the run.
 */
export type ToolCallAnswer =
  | { readonly kind: 'executed'; readonly execution: ToolExecution; readonly wording: string | null }
  | { readonly kind: 'answer'; readonly content: string; readonly isError: boolean }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };
