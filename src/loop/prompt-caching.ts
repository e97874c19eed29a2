import type { CacheControlEphemeral, Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '../model/model-client.js';

/** The mark: the API's default lifetime, 5 minutes from the last use. */
export const EPHEMERAL: CacheControlEphemeral = Object.freeze({ type: 'ephemeral' });
/** The hour-long mark: dearer to write (2× input, not 1.25×), for calls minutes apart (a batched sweep's turns). */
export const EPHEMERAL_HOUR: CacheControlEphemeral = Object.freeze({ type: 'ephemeral', ttl: '1h' });

/** Each tool list the loop sends, with its last definition marked: one copy per list and mark, so the list keeps one identity across calls. */
const markedLists = new Map<CacheControlEphemeral, WeakMap<readonly ToolUnion[], ToolUnion[]>>([
  [EPHEMERAL, new WeakMap()],
  [EPHEMERAL_HOUR, new WeakMap()],
]);
const marked = new WeakSet<readonly ToolUnion[]>();

/** `tools` with its last definition marked for the cache (the same array every time for the same list). */
export function markedTools(tools: readonly ToolUnion[], mark: CacheControlEphemeral = EPHEMERAL): ToolUnion[] {
  if (marked.has(tools)) return tools as ToolUnion[];
  const copies = markedLists.get(mark) ?? new WeakMap<readonly ToolUnion[], ToolUnion[]>();
  let copy = copies.get(tools);
  if (copy === undefined) {
    copy = tools.slice();
    if (copy.length > 0) copy[copy.length - 1] = { ...(tools.at(-1) as Tool), cache_control: mark };
    copies.set(tools, copy);
    marked.add(copy);
  }
  return copy;
}

/**
 * `request` with prompt-cache breakpoints where they pay (docs/cost.md):
 * one on the last tool definition, which holds for the whole run, and the
 * request's top-level `cache_control`, which the API places on the last block, so the
 * mark moves on as the transcript grows and each call reads what the one before wrote.
 * Two of the API's four; the transcript and the system prompt are sent as they are. A
 * request already marked (the loop builds its own so) comes back as it is.
 */
export function markForCaching(request: ModelRequest, mark: CacheControlEphemeral = EPHEMERAL): ModelRequest {
  const { tools } = request;
  const toolsMarked = tools === undefined || marked.has(tools);
  if (toolsMarked && request.cache_control !== undefined) return request;
  return {
    ...request,
    cache_control: request.cache_control ?? mark,
    ...(toolsMarked ? {} : { tools: markedTools(tools, mark) }),
  };
}
