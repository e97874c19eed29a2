import type { ToolExecution } from '../tools/tool-execution.js';
import { toolErrorOf } from './tool-error-of.js';

/**
 * A tool call that resolves to its result text or rejects, as the execution it came to:
 * the text as it is (so a body that is not whole JSON can be classified a transient
 * failure), a rejection read by `toolErrorOf`. For `executeTool` in a spiralbench agent,
 * where `ctx.tools.call` is such a call: the guards then see exactly what our loop sees.
 *
 * @example
 * aiSdkGuards({ ..., executeTool: (name, input) => toolExecutionOf(ctx.tools.call(name, input)) })
 */
export function toolExecutionOf(call: PromiseLike<string>): Promise<ToolExecution> {
  return Promise.resolve(call).then(
    (content): ToolExecution => ({ kind: 'ok', content, latencyMs: 0, fault: null }),
    (error: unknown): ToolExecution => ({ kind: 'error', error: toolErrorOf(error), latencyMs: 0, fault: null }),
  );
}
