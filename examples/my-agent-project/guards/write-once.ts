// Our own safeguard, in one module: nothing in spiralbench is edited to add it. The arms
// file (arms.yaml, beside it) names it by path.
import { defineGuard, type ToolExecution } from 'spiralbench';
import { z } from 'zod';

/** Failures that come after the request reached the tool: the write itself went through. */
const AFTER_SENDING: ReadonlySet<string> = new Set(['connection_reset', 'malformed_response']);

/**
 * A side-effecting tool is run at most once per key in a run once a write has gone
 * through: a later write of the same key is answered without running it, so a confused
 * model, or a retry after a write whose answer was lost or garbled on the way back,
 * cannot write twice. A write that failed before it was sent (a timeout, a refused connection, a 429 or
 * a 503) is not counted, so its retry runs.
 */
export default defineGuard({
  name: 'write-once',
  settings: z.strictObject({
    /** The tools whose calls write. */
    tools: z.array(z.string().min(1)).min(1).default(['write_result']),
    /** The input field that names what is written. */
    keyField: z.string().min(1).default('key'),
  }),
  // Events it emits of its own: none; a refusal shows in the run's tool results.
  events: [],
  // Called once per run, so the keys below are the run's own.
  build: ({ tools, keyField }) => {
    const written = new Set<string>();
    const keyOf = (input: unknown): string => JSON.stringify((input as Record<string, unknown>)[keyField] ?? null);
    /** The write went through: it answered, or its answer came back damaged or was lost after it was sent. */
    const landed = (execution: ToolExecution): boolean =>
      execution.kind === 'ok' || AFTER_SENDING.has(execution.error.code);
    return {
      name: 'write-once',
      beforeToolCall(call) {
        if (!tools.includes(call.name) || !written.has(keyOf(call.input))) return undefined;
        return {
          kind: 'answer',
          content: `Not run: ${keyOf(call.input)} was already written in this task. Read it back to check it instead of writing again.`,
          isError: false,
        };
      },
      aroundExecution(ctx, next) {
        if (!tools.includes(ctx.call.name)) return next();
        const remember = (execution: ToolExecution): ToolExecution => {
          if (landed(execution)) written.add(keyOf(ctx.call.input));
          return execution;
        };
        const execution = next();
        return execution instanceof Promise ? execution.then(remember) : remember(execution);
      },
    };
  },
});
