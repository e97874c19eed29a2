import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { MaybePromise } from '../tools/maybe-promise.js';
import type { RunDurability } from './durability.js';
import type { LoopContext } from './guard.js';
import type { GuardHooks } from './guard-hooks.js';
import type { RunOutcome } from './outcome.js';
import type { ToolHost } from './tool-host.js';
import { executeToolCall, UnknownToolError, type ToolCallReport } from './tool-executor.js';

export type EnvelopedRun = ToolCallReport | { readonly kind: 'stop'; readonly outcome: RunOutcome };

/**
 * Runs one call inside the idempotency envelope: recorded as started before the tool
 * runs and as completed, with its result, after. While `settling` the turn a crash
 * interrupted, the envelope is read first: a completed call is answered from it without
 * running (`agent.tool.replayed`), a started call of a side-effecting tool halts the run
 * `waiting_on_human` (it may have gone through), anything else runs. Without durability
 * it is a plain execution. A call of a tool nobody provides stops the run `failed`. The
 * run is a promise only when the tool answered with one.
 */
export function runEnveloped(
  call: ToolUseBlock,
  host: ToolHost,
  hooks: Pick<GuardHooks, 'aroundExecution' | 'describeError'>,
  ctx: LoopContext,
  durability: RunDurability | undefined,
  settling: boolean,
): MaybePromise<EnvelopedRun> {
  const { clock, emit } = ctx;
  // Only a call of the turn a crash interrupted can be in the envelope already.
  const entry = settling ? durability?.toolCall(call.id) : undefined;
  if (entry?.state === 'completed') {
    emit({ type: 'agent.tool.replayed', at: clock.now(), id: call.id, tool: call.name });
    return { kind: 'result', block: entry.block, executions: 0 };
  }
  if (entry?.state === 'started' && host.traits(call.name)?.sideEffecting === true) {
    const reason = `resume-unsafe: the ${call.name} call ${call.id} was started before the interruption and may have run; it has side effects, so it is not run again`;
    return { kind: 'stop', outcome: { kind: 'waiting_on_human', reason } };
  }
  durability?.startToolCall(call, clock.now());
  let report;
  try {
    // An unknown tool is found before anything runs, so it is always thrown synchronously.
    report = executeToolCall(call, host, hooks, ctx);
  } catch (error) {
    if (error instanceof UnknownToolError)
      return { kind: 'stop', outcome: { kind: 'failed', reason: `configuration error: ${error.message}`, error } };
    throw error;
  }
  if (durability === undefined) return report;
  return report instanceof Promise
    ? report.then((done) => completed(durability, call, done, clock.now()))
    : completed(durability, call, report, clock.now());
}

function completed(durability: RunDurability, call: ToolUseBlock, report: ToolCallReport, at: number): ToolCallReport {
  durability.completeToolCall(call.id, report.block, at);
  return report;
}
