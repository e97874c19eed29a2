// Our own safeguard, in one module: nothing in spiralbench is edited to add it. The arms
// file (arms.yaml, beside it) names it by path.
import { defineGuard } from 'spiralbench';
import { z } from 'zod';

/**
 * A side-effecting tool is run at most once per key in a run: a second write of the same
 * key is answered without running it, so a confused model, or a retry after a write whose
 * answer was lost, cannot write twice.
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
    return {
      name: 'write-once',
      beforeToolCall(call) {
        if (!tools.includes(call.name)) return undefined;
        const key = JSON.stringify((call.input as Record<string, unknown>)[keyField] ?? null);
        if (!written.has(key)) {
          written.add(key);
          return undefined;
        }
        return {
          kind: 'answer',
          content: `Not run: ${key} was already written in this task. Read it back to check it instead of writing again.`,
          isError: false,
        };
      },
    };
  },
});
