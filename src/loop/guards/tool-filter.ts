import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { ModelRequest } from '../../model/model-client.js';
import { defineGuard } from '../define-guard.js';
import type { Guard, LoopContext } from '../guard.js';

export interface ToolFilterOptions {
  /**
   * The tools the task needs, by name. @default null: every read-only tool, and the
   * side-effecting tools the task's words name (its first user message and the system
   * prompt)
   */
  readonly allow?: readonly string[] | null;
}

/** The task's own words: the system prompt and the first user message. */
function taskWords(request: ModelRequest): string {
  const system =
    typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => b.text).join('\n');
  const first = request.messages[0];
  if (first === undefined || first.role !== 'user') return system;
  const text =
    typeof first.content === 'string'
      ? first.content
      : first.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return `${system}\n${text}`;
}

/** Whether `name` stands in `text` as a whole word. */
function names(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !/\w/.test(before)) && (after === undefined || !/\w/.test(after))) return true;
  }
  return false;
}

/**
 * A tool filter: each request offers only the tools the task needs, so an instruction that
 * asks for another tool asks for one the model does not have. AgentDojo's filter asks a
 * model to pick the tools from the task; this one is a deterministic stand-in with least
 * privilege for writes: every read-only tool, and only the side-effecting tools the task's
 * words name (or exactly `allow`). A task that asks to "fetch the record" without naming
 * the reading tool keeps it; one that never names the tool it must write with loses it.
 * Tools the harness's guards add (asking for help, more turns, a journal) are always offered.
 *
 * @example
 * toolFilter() // the tools the task names
 * toolFilter({ allow: ['get_order', 'create_refund'] })
 */
export function toolFilter({ allow = null }: ToolFilterOptions = {}): Guard {
  let kept: ReadonlySet<string> | null = null;
  const keep = (request: ModelRequest, ctx: LoopContext): ReadonlySet<string> => {
    if (kept !== null) return kept;
    const tools = (request.tools ?? []).flatMap((tool) => ('name' in tool ? [tool.name] : []));
    const words = taskWords(request);
    const own = (name: string) => ctx.toolTraits(name) === undefined;
    const needed = allow ?? tools.filter((name) => ctx.toolTraits(name)?.sideEffecting === false || names(words, name));
    const chosen = tools.filter((name) => needed.includes(name) || own(name));
    kept = new Set(chosen);
    const removed = tools.filter((name) => !kept!.has(name));
    if (removed.length > 0) ctx.emit({ type: 'agent.tools.filtered', at: ctx.clock.now(), removed });
    return kept;
  };
  return {
    name: 'filter',
    prepareRequest(request, ctx) {
      const offered = keep(request, ctx);
      const tools = request.tools;
      if (tools === undefined || tools.every((tool) => !('name' in tool) || offered.has(tool.name))) return request;
      return { ...request, tools: tools.filter((tool) => !('name' in tool) || offered.has((tool as Tool).name)) };
    },
    beforeToolCall(call) {
      // A call of a tool the request did not offer (a model that names one anyway) is not run.
      if (kept === null || kept.has(call.name) || call.name === '') return undefined;
      return { kind: 'answer', content: `There is no tool named ${call.name} available to you.`, isError: true };
    },
  };
}

/** The tool filter in an arm. */
export const toolFilterGuard = defineGuard({
  name: 'filter',
  settings: z.strictObject({ allow: z.array(z.string().min(1)).nullable().default(null) }),
  events: ['agent.tools.filtered'],
  build: (settings) => toolFilter(settings),
});
