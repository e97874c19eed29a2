import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { MaybePromise } from '../tools/maybe-promise.js';
import { handlerException, type ToolExecution } from '../tools/tool-execution.js';
import type { ExecutionContext, LoopContext } from './guard.js';
import type { GuardHooks } from './guard-hooks.js';
import type { ToolHost } from './tool-host.js';

/** A call of a tool the host does not have: a configuration error, not a tool failure. */
export class UnknownToolError extends Error {
  override readonly name = 'UnknownToolError';
  constructor(readonly tool: string) {
    super(`the model called '${tool}', which no tool host or guard provides`);
  }
}

export interface ToolCallReport {
  readonly kind: 'result';
  readonly block: ToolResultBlockParam;
  /** Executions the tool saw for this call (1 + automatic retries). */
  readonly executions: number;
}

function asInput(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/**
 * Runs one tool call through the guards' execution wrappers and words the result for
 * the model. A throwing or rejecting handler becomes an error result; it never crashes
 * the loop. The report is a value when every layer answered synchronously, a promise
 * once one of them answered with a promise. The report is a `kind: 'result'` value, so the envelope and the loop hand it on as it
 * is rather than rewrapping it (an object fewer per call at each layer).
 */
export function executeToolCall(
  call: ToolUseBlock,
  host: ToolHost,
  hooks: Pick<GuardHooks, 'aroundExecution' | 'describeError'>,
  loop: LoopContext,
): MaybePromise<ToolCallReport> {
  const traits = host.traits(call.name);
  if (traits === undefined) throw new UnknownToolError(call.name);
  let executions = 0;
  const once = (tool: string, input: Record<string, unknown>): MaybePromise<ToolExecution> => {
    executions += 1;
    let answer: MaybePromise<ToolExecution>;
    try {
      answer = host.execute(tool, input);
    } catch (error) {
      return settle(ctx, tool, handlerException(tool, error));
    }
    // A rejection is a handler exception like a throw: a tool result, never a crashed loop.
    return answer instanceof Promise
      ? answer.then(
          (execution) => settle(ctx, tool, execution),
          (error: unknown) => settle(ctx, tool, handlerException(tool, error)),
        )
      : settle(ctx, tool, answer);
  };
  const ctx: ExecutionContext = {
    clock: loop.clock,
    emit: loop.emit,
    toolCalls: loop.toolCalls,
    toolExecutions: loop.toolExecutions,
    toolTraits: loop.toolTraits,
    iteration: loop.iteration,
    messages: loop.messages,
    call,
    traits,
    execute: (tool, input) => {
      if (host.traits(tool) === undefined) throw new UnknownToolError(tool);
      return once(tool, input);
    },
  };
  const input = asInput(call.input);

  let run = (): MaybePromise<ToolExecution> => once(call.name, input);
  // Each wrapper but the outermost is closed over the one inside it; the outermost is
  // called directly (most arms have one wrapper: no closure for it on every call).
  const wrappers = hooks.aroundExecution;
  for (let w = 0; w < wrappers.length - 1; w++) {
    const guard = wrappers[w]!;
    const inner = run;
    run = () => guard.aroundExecution(ctx, inner);
  }
  const outermost = wrappers.at(-1);
  const execution = outermost === undefined ? run() : outermost.aroundExecution(ctx, run);
  // The count is read once the last execution is in, however long it took.
  return execution instanceof Promise
    ? execution.then((done) => report(call, done, hooks, ctx, executions))
    : report(call, execution, hooks, ctx, executions);
}

/** An execution has come back: its time passes and its fault is told. */
function settle(ctx: ExecutionContext, tool: string, execution: ToolExecution): ToolExecution {
  ctx.clock.sleep(execution.latencyMs);
  if (execution.fault !== null)
    ctx.emit({ type: 'agent.tool.fault', at: ctx.clock.now(), tool, fault: execution.fault });
  return execution;
}

function report(
  call: ToolUseBlock,
  execution: ToolExecution,
  hooks: Pick<GuardHooks, 'describeError'>,
  ctx: ExecutionContext,
  executions: number,
): ToolCallReport {
  if (execution.kind === 'ok')
    return {
      kind: 'result',
      block: { type: 'tool_result', tool_use_id: call.id, content: execution.content },
      executions,
    };
  // The last guard that words errors does; the wording is needed only if the call fails.
  const describer = hooks.describeError.at(-1);
  const content =
    describer === undefined ? `Error: ${execution.error.message}` : describer.describeError(execution.error, ctx);
  return { kind: 'result', block: { type: 'tool_result', tool_use_id: call.id, content, is_error: true }, executions };
}
