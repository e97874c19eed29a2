import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { MaybePromise } from '../tools/maybe-promise.js';
import type { RunDurability } from './durability.js';
import { runEnveloped, type EnvelopedRun } from './enveloped-execution.js';
import type { Guard, LoopContext } from './guard.js';
import type { GuardHooks } from './guard-hooks.js';
import type { RunOutcome } from './outcome.js';
import { readArguments } from './tool-arguments.js';
import type { ToolHost } from './tool-host.js';

/** What became of one tool call: its result for the model, or the run's end. */
export type ToolCallOutcome =
  | { readonly kind: 'result'; readonly block: ToolResultBlockParam }
  | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/** What a run's tool calls go through, the same for every call: made once per loop. */
export interface ToolCallParts {
  readonly guards: readonly Guard[];
  readonly hooks: GuardHooks;
  readonly host: ToolHost;
  readonly durability: RunDurability | undefined;
}

/**
 * One tool call: counted, read, put to the guards, run (inside the idempotency envelope),
 * and its result recorded. A promise only when the tool answered with one; `settling`: a
 * call of the turn a crash interrupted (see runEnveloped).
 */
export function runToolCall(
  call: ToolUseBlock,
  ctx: LoopContext,
  metrics: { toolCalls: number; toolExecutions: number },
  { guards, hooks, host, durability }: ToolCallParts,
  settling = false,
): MaybePromise<ToolCallOutcome> {
  const { clock, emit } = ctx;
  metrics.toolCalls += 1;
  emit({ type: 'agent.tool.call', at: clock.now(), id: call.id, tool: call.name, input: call.input });
  const read = readArguments(call, guards, ctx);
  if (!read.ok)
    return told(
      call,
      { kind: 'result', block: { type: 'tool_result', tool_use_id: call.id, content: read.message, is_error: true } },
      ctx,
    );
  let decision;
  for (const guard of hooks.beforeToolCall) {
    decision = guard.beforeToolCall(read.call, ctx);
    if (decision !== undefined) break;
  }
  if (decision?.kind === 'stop') return decision;
  if (decision?.kind === 'answer') {
    const block: ToolResultBlockParam = decision.isError
      ? { type: 'tool_result', tool_use_id: call.id, content: decision.content, is_error: true }
      : { type: 'tool_result', tool_use_id: call.id, content: decision.content };
    return told(call, { kind: 'result', block }, ctx);
  }
  const run = runEnveloped(read.call, host, hooks, ctx, durability, settling);
  return run instanceof Promise
    ? run.then((done) => executed(call, done, ctx, metrics))
    : executed(call, run, ctx, metrics);
}

/** A call that went to the tool: its executions counted, its result recorded. */
function executed(
  call: ToolUseBlock,
  run: EnvelopedRun,
  ctx: LoopContext,
  metrics: { toolExecutions: number },
): ToolCallOutcome {
  if (run.kind === 'stop') return run;
  metrics.toolExecutions += run.executions;
  return told(call, run, ctx);
}

/**
 * The result is recorded as an event. The report is handed on as it is (the executor and
 * the envelope do the same): one object per call, not one per layer.
 */
function told<Report extends { readonly kind: 'result'; readonly block: ToolResultBlockParam }>(
  call: ToolUseBlock,
  report: Report,
  { clock, emit }: LoopContext,
): Report {
  const { block } = report;
  emit({
    type: 'agent.tool.result',
    at: clock.now(),
    id: call.id,
    tool: call.name,
    isError: block.is_error === true,
    content: String(block.content ?? ''),
  });
  return report;
}
