import { z } from 'zod';
import type {
  ContentBlockParam,
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '../../model/model-client.js';
import { memoByToolList } from '../../model/tool-list-memo.js';
import { defineGuard } from '../define-guard.js';
import type { Guard } from '../guard.js';

/** What a fix changed, for the `agent.messages.fixed` event. */
export interface OrderFix {
  readonly messages: MessageParam[];
  /** Messages folded into the one before them (same role) or dropped empty. */
  readonly merged: number;
  /** tool_result blocks that answered no tool_use of the turn before, or answered one twice. */
  readonly droppedResults: number;
  /** tool_use blocks no result answers in the next turn, or that name a tool not offered. */
  readonly strippedCalls: number;
}

/** A message being rebuilt; content is always a fresh block array. */
type Draft = { role: MessageParam['role']; content: ContentBlockParam[] };
const asMessages = (drafts: Draft[]): MessageParam[] => drafts as MessageParam[];

const blocksOf = (message: MessageParam): ContentBlockParam[] =>
  typeof message.content === 'string'
    ? message.content === ''
      ? []
      : [{ type: 'text', text: message.content }]
    : [...message.content];

const isEmptyText = (block: ContentBlockParam): boolean => block.type === 'text' && block.text === '';

/** Consecutive messages of one role as one message; empty ones and empty text blocks dropped. */
function merge(messages: readonly MessageParam[]): { messages: MessageParam[]; merged: number } {
  const out: Draft[] = [];
  let merged = 0;
  for (const message of messages) {
    const blocks = blocksOf(message).filter((block) => !isEmptyText(block));
    const last = out.at(-1);
    if (blocks.length === 0) merged += 1;
    else if (last?.role === message.role) {
      last.content.push(...blocks);
      merged += 1;
    } else out.push({ role: message.role, content: blocks });
  }
  return { messages: asMessages(out), merged };
}

/**
 * Results answer only calls of the assistant turn just before them, once each, and come
 * first in their message; calls no result answers in the next turn (or of a tool not
 * offered, or reusing an id) are stripped, with any result they had. Calls in a user message and results
 * in an assistant message have no place at all.
 */
function pair(
  messages: readonly MessageParam[],
  offered: ReadonlySet<string>,
): { messages: MessageParam[]; droppedResults: number; strippedCalls: number } {
  let droppedResults = 0;
  let strippedCalls = 0;
  const out: Draft[] = messages.map((message) => ({ role: message.role, content: blocksOf(message) }));
  const callIds = new Set<string>();
  for (let i = 0; i < out.length; i++) {
    const message = out[i]!;
    if (message.role === 'user') {
      const asked = new Set(
        i > 0 && out[i - 1]!.role === 'assistant'
          ? out[i - 1]!.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
          : [],
      );
      const answered = new Set<string>();
      const results: ToolResultBlockParam[] = [];
      const rest: ContentBlockParam[] = [];
      for (const block of message.content) {
        if (block.type === 'tool_use') strippedCalls += 1;
        else if (block.type !== 'tool_result') rest.push(block);
        else if (asked.has(block.tool_use_id) && !answered.has(block.tool_use_id)) {
          answered.add(block.tool_use_id);
          results.push(block);
        } else droppedResults += 1;
      }
      message.content = [...results, ...rest];
      continue;
    }
    const next = out[i + 1];
    const answeredNext = new Set(
      next?.role === 'user'
        ? next.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : []))
        : [],
    );
    const keep = (block: ContentBlockParam): boolean => {
      if (block.type === 'tool_result') {
        droppedResults += 1;
        return false;
      }
      if (block.type !== 'tool_use') return true;
      const { id, name } = block as ToolUseBlockParam;
      // A call id is used once in a conversation; a second use is stripped like an orphan.
      const ok = answeredNext.has(id) && offered.has(name) && !callIds.has(id);
      if (ok) callIds.add(id);
      else strippedCalls += 1;
      return ok;
    };
    message.content = message.content.filter(keep);
  }
  return { messages: asMessages(out), droppedResults, strippedCalls };
}

/**
 * A transcript the Messages API accepts, made from any history: merge consecutive
 * same-role messages, drop orphan tool results, strip orphan tool calls, merge again
 * (until nothing changes), and drop leading assistant turns so the user speaks first.
 * Pure; message objects are never edited in place.
 */
export function fixMessageOrder(messages: readonly MessageParam[], offered: ReadonlySet<string>): OrderFix {
  let current: MessageParam[] = [...messages];
  let merged = 0;
  let droppedResults = 0;
  let strippedCalls = 0;
  for (;;) {
    const first = merge(current);
    const paired = pair(first.messages, offered);
    const second = merge(paired.messages);
    let lead = 0;
    while (second.messages[lead]?.role === 'assistant') {
      strippedCalls += blocksOf(second.messages[lead]!).filter((block) => block.type === 'tool_use').length;
      lead += 1;
    }
    const next = second.messages.slice(lead);
    merged += first.merged + second.merged + lead;
    droppedResults += paired.droppedResults;
    strippedCalls += paired.strippedCalls;
    const changed = first.merged + second.merged + lead + paired.droppedResults + paired.strippedCalls > 0;
    current = next;
    if (!changed) return { messages: current, merged, droppedResults, strippedCalls };
  }
}

/** A message's blocks as they are, for reading only (no copy; a string is one text block). */
const blocksIn = (message: MessageParam): readonly ContentBlockParam[] =>
  typeof message.content === 'string'
    ? message.content === ''
      ? []
      : [{ type: 'text', text: message.content }]
    : message.content;

/*
 * The ids of a message's tool calls, and of the calls its results answer. Plain loops:
 * they run for every message checked before every model call, where flatMap was the
 * check's main cost.
 */
function callIdsIn(message: MessageParam): string[] {
  const ids: string[] = [];
  for (const block of blocksIn(message)) if (block.type === 'tool_use') ids.push(block.id);
  return ids;
}

function answeredIdsIn(message: MessageParam): string[] {
  const ids: string[] = [];
  for (const block of blocksIn(message)) if (block.type === 'tool_result') ids.push(block.tool_use_id);
  return ids;
}

/**
 * Whether message `i` sits well with its neighbours: the user speaks first, roles
 * alternate, nothing is empty, and tool calls and results pair up turn by turn. Each
 * check looks at one message and the ones either side, so a transcript that only grew
 * is checked from just before where it was last seen well-ordered.
 */
function wellPlaced(messages: readonly MessageParam[], i: number, offered: ReadonlySet<string>): boolean {
  const message = messages[i]!;
  const before = messages[i - 1];
  if (i === 0 ? message.role !== 'user' : before?.role === message.role) return false;
  const blocks = blocksIn(message);
  if (blocks.length === 0 || blocks.some(isEmptyText)) return false;
  if (message.role === 'assistant') {
    const next = messages[i + 1];
    const answered = next === undefined ? [] : answeredIdsIn(next);
    const ids = new Set<string>();
    for (const block of blocks) {
      if (block.type === 'tool_result') return false;
      if (block.type !== 'tool_use') continue;
      if (ids.has(block.id) || !offered.has(block.name) || !answered.includes(block.id)) return false;
      ids.add(block.id);
    }
    return true;
  }
  const asked = before === undefined ? [] : callIdsIn(before);
  const seen = new Set<string>();
  let other = false;
  for (const block of blocks) {
    if (block.type === 'tool_use') return false;
    if (block.type !== 'tool_result') other = true;
    else if (other || seen.has(block.tool_use_id) || !asked.includes(block.tool_use_id)) return false;
    else seen.add(block.tool_use_id);
  }
  return true;
}

const NO_TOOLS: NonNullable<ModelRequest['tools']> = [];
const offeredNamesOf = memoByToolList(
  (tools): ReadonlySet<string> => new Set(tools.flatMap((tool) => ('name' in tool ? [tool.name] : []))),
);
const offeredNames = (request: ModelRequest): ReadonlySet<string> => offeredNamesOf(request.tools ?? NO_TOOLS);

/**
 * Repairs the transcript before every model call, so that a history resumed from
 * elsewhere (hand-edited, cut off mid-turn, merged from two sessions) does not get the
 * request refused. It remembers the messages it last found well-ordered and re-checks
 * only what changed since; a repair emits `agent.messages.fixed`.
 *
 * @example
 * orderingFixup()
 */
export function orderingFixup(): Guard {
  const known: MessageParam[] = [];
  return {
    name: 'fixup',
    prepareRequest(request, ctx) {
      const { messages } = request;
      let same = 0;
      while (same < known.length && same < messages.length && known[same] === messages[same]) same += 1;
      const offered = offeredNames(request);
      let ordered = true;
      for (let i = Math.max(0, same - 1); i < messages.length && ordered; i++)
        ordered = wellPlaced(messages, i, offered);
      if (ordered) {
        known.length = same;
        for (let i = same; i < messages.length; i++) known.push(messages[i]!);
        return request;
      }
      const fix = fixMessageOrder(messages, offered);
      ctx.emit({
        type: 'agent.messages.fixed',
        at: ctx.clock.now(),
        merged: fix.merged,
        droppedResults: fix.droppedResults,
        strippedCalls: fix.strippedCalls,
      });
      known.length = 0;
      known.push(...fix.messages);
      return { ...request, messages: fix.messages };
    },
  };
}

/** Message-ordering fixup in an arm: no settings. */
export const orderingFixupGuard = defineGuard({
  name: 'fixup',
  settings: z.strictObject({}),
  events: ['agent.messages.fixed'],
  build: () => orderingFixup(),
});
