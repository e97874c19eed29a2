import type { MessageParam, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { canonicalCall } from '../../scenarios/canonical-json.js';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { BatchDecision, Guard, LoopContext } from '../guard.js';
import { STUCK_TOOL, stuckTool, STUCK_TOOL_NAME } from './stuck-tool.js';

export interface LoopDetectionOptions {
  /** The most recent tool calls looked at after each batch. @default 6 */
  readonly window?: number;
  /** Calls with the same name and arguments within the window that are identical thrash. @default 3 */
  readonly identical?: number;
  /** Calls of one tool with differing arguments within the window that are pattern thrash. @default 4 */
  readonly pattern?: number;
}

/** What was found: the tool, and how many of the window's calls went to it. */
interface Thrash {
  readonly kind: 'identical' | 'pattern';
  readonly tool: string;
  readonly count: number;
  readonly window: number;
}

/** The ladder's wording, rung by rung: a nudge, a directive, then the forced call's reason. */
export function loopMessage(tier: 1 | 2 | 3, thrash: Thrash): string {
  const { tool, count, window } = thrash;
  const how = thrash.kind === 'identical' ? 'with identical arguments' : 'with only slightly different arguments';
  switch (tier) {
    case 1:
      return `Loop check: ${count} of your last ${window} tool calls went to ${tool} ${how}, and they are not getting you closer. Step back and try a different tool or a different approach.`;
    case 2:
      return `Stop calling ${tool}: ${count} of your last ${window} calls went to it without progress, after a warning. Your next call must use a different tool or a different approach; if none can work, say so.`;
    case 3:
      return `You are still looping on ${tool} after two warnings. Call ${STUCK_TOOL_NAME} now: say what you tried and what you need from a person.`;
  }
}

/** A recent call and whether it got anywhere: false when it failed or came back with nothing. */
export interface RecentCall {
  readonly call: ToolUseBlock;
  readonly fruitless: boolean;
}

/**
 * Whether a result brought nothing: an error, or a JSON object whose lists are all empty
 * ("results": [], "orders": []). Read from the result as the model sees it.
 */
function fruitless(result: ToolResultBlockParam | undefined): boolean {
  if (result === undefined || result.is_error === true) return true;
  // Each result block is read once: a run's blocks come back in every later window.
  let known = fruitlessResults.get(result);
  if (known === undefined) {
    known = emptyResult(result);
    fruitlessResults.set(result, known);
  }
  return known;
}

const fruitlessResults = new WeakMap<ToolResultBlockParam, boolean>();

function emptyResult(result: ToolResultBlockParam): boolean {
  const text =
    typeof result.content === 'string'
      ? result.content
      : (result.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (text.toLowerCase().startsWith('error')) return true;
  // Only a text with an empty list in it can be one; most results are read no further.
  if (!text.includes('[]')) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.toLowerCase().startsWith('error');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const lists = Object.values(value).filter(Array.isArray);
  return lists.length > 0 && lists.every((list) => list.length === 0);
}

/** The result that answers call `id` in the message after its turn, if any. */
function resultFor(answer: MessageParam | undefined, id: string): ToolResultBlockParam | undefined {
  if (answer?.role !== 'user' || typeof answer.content === 'string') return undefined;
  for (const block of answer.content) if (block.type === 'tool_result' && block.tool_use_id === id) return block;
  return undefined;
}

/** The last `limit` tool calls of the transcript, oldest first, each with how it went. */
function recentCalls(messages: readonly MessageParam[], limit: number): RecentCall[] {
  const calls: RecentCall[] = [];
  for (let i = messages.length - 1; i >= 0 && calls.length < limit; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (let j = message.content.length - 1; j >= 0 && calls.length < limit; j--) {
      const block = message.content[j]!;
      if (block.type === 'tool_use')
        calls.push({ call: block as ToolUseBlock, fruitless: fruitless(resultFor(messages[i + 1], block.id)) });
    }
  }
  return calls.reverse();
}

const callKeys = new WeakMap<ToolUseBlock, string>();

/**
 * Identical thrash first (it is the stronger signal), then pattern thrash. Pattern thrash
 * counts only fruitless calls: reading eight different sources is one tool with differing
 * arguments too, but every call brings something back.
 */
export function findThrash(recent: readonly RecentCall[], identical: number, pattern: number): Thrash | null {
  const calls = recent.map((entry) => entry.call);
  const fruitlessCalls = recent.filter((entry) => entry.fruitless).map((entry) => entry.call);
  const sameCall = new Map<string, { tool: string; count: number }>();
  const sameTool = new Map<string, Set<string>>();
  const toolCount = new Map<string, number>();
  const keyOf = (call: ToolUseBlock) => {
    let key = callKeys.get(call);
    if (key === undefined) {
      key = canonicalCall(call.name, call.input);
      callKeys.set(call, key);
    }
    return key;
  };
  for (const call of calls) {
    const key = keyOf(call);
    const seen = sameCall.get(key) ?? { tool: call.name, count: 0 };
    seen.count += 1;
    sameCall.set(key, seen);
  }
  for (const call of fruitlessCalls) {
    toolCount.set(call.name, (toolCount.get(call.name) ?? 0) + 1);
    const forms = sameTool.get(call.name) ?? new Set<string>();
    forms.add(keyOf(call));
    sameTool.set(call.name, forms);
  }
  for (const { tool, count } of sameCall.values()) {
    if (count >= identical) return { kind: 'identical', tool, count, window: calls.length };
  }
  for (const [tool, count] of toolCount) {
    if (count >= pattern && (sameTool.get(tool)?.size ?? 0) > 1)
      return { kind: 'pattern', tool, count, window: calls.length };
  }
  return null;
}

/**
 * Loop detection with an escalation ladder. After each tool batch it looks at the last
 * `window` calls made since its last intervention: the same call `identical` times
 * (identical thrash) or one tool `pattern` times with differing arguments, each failing
 * or coming back empty (pattern thrash). The first finding gets a soft nudge, the second a hard directive, every later
 * one a forced call of `request_human_help` through `tool_choice` (the tool is offered
 * for that turn if the arm has no stuck tool; a call of it ends the run `escalated`).
 * Only calls after an intervention count toward the next, so each rung needs fresh
 * evidence that the model ignored the last.
 *
 * @example
 * loopDetection({ window: 6, identical: 3, pattern: 4 })
 */
export function loopDetection({
  window = loopDetectionGuard.defaults.window,
  identical = loopDetectionGuard.defaults.identical,
  pattern = loopDetectionGuard.defaults.pattern,
}: LoopDetectionOptions = {}): Guard {
  const escalate = stuckTool();
  let tier: 0 | 1 | 2 | 3 = 0;
  /** ctx.toolCalls at the last intervention. */
  let since = 0;
  let forcing = false;
  return {
    name: 'loops',
    prepareRequest(request) {
      if (!forcing) return request;
      forcing = false;
      const tools = request.tools ?? [];
      return tools.some((tool) => 'name' in tool && tool.name === STUCK_TOOL_NAME)
        ? request
        : { ...request, tools: [...tools, STUCK_TOOL] };
    },
    beforeToolCall: escalate.beforeToolCall!,
    afterToolBatch(ctx: LoopContext): BatchDecision | undefined {
      const fresh = ctx.toolCalls - since;
      if (fresh < Math.min(identical, pattern)) return undefined;
      const thrash = findThrash(recentCalls(ctx.messages, Math.min(window, fresh)), identical, pattern);
      if (thrash === null) return undefined;
      tier = tier === 3 ? 3 : ((tier + 1) as 1 | 2 | 3);
      since = ctx.toolCalls;
      const level = tier === 1 ? 'nudge' : tier === 2 ? 'directive' : 'forced';
      ctx.emit({ type: 'agent.loop.detected', at: ctx.clock.now(), kind: thrash.kind, tool: thrash.tool, tier, level });
      if (tier < 3) return { kind: 'intervene', message: loopMessage(tier, thrash) };
      forcing = true;
      return { kind: 'intervene', message: loopMessage(3, thrash), forceTool: STUCK_TOOL_NAME };
    },
  };
}

/** Loop detection in an arm. */
export const loopDetectionGuard = defineGuard({
  name: 'loops',
  settings: z.strictObject({
    window: z.number().int().min(2).default(6),
    identical: z.number().int().min(2).default(3),
    pattern: z.number().int().min(2).default(4),
  }),
  events: ['agent.loop.detected', 'agent.guardrail.escalated'],
  build: (settings) => loopDetection(settings),
});
