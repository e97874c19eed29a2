// A user guard: one module, nothing in spiralbench to edit. Use it from an arms file
// (arms.yaml, beside it) with `spiralbench run --arms-file guards/arms.yaml`.
import { defineGuard } from 'spiralbench';
import { z } from 'zod';

/**
 * Caps how often the agent may search. Past `maxSearches`, a search is answered with a
 * refusal instead of being run, so a detour into searching ends before it becomes a spiral.
 */
export default defineGuard({
  name: 'search-cap',
  settings: z.strictObject({
    /** Searches run per task; later ones are refused. */
    maxSearches: z.number().int().min(0).default(1),
    /** The tools that count as searching. */
    tools: z.array(z.string().min(1)).min(1).default(['search_users']),
  }),
  // Events it emits of its own: none; a refusal shows in the run's tool results.
  events: [],
  // Called once per run, so the count below is the run's own.
  build: ({ maxSearches, tools }) => {
    let searches = 0;
    return {
      name: 'search-cap',
      beforeToolCall(call) {
        if (!tools.includes(call.name)) return undefined;
        searches += 1;
        if (searches <= maxSearches) return undefined;
        return {
          kind: 'answer',
          content: `Not run: searching is capped at ${maxSearches} per task. Work from the results you already have.`,
          isError: true,
        };
      },
    };
  },
});
