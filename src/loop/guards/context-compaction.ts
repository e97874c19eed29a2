import { promptTokens, usageCost } from '../../model/usage.js';
import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { ModelRequest } from '../../model/model-client.js';
import { CHEAP_MODEL_ID } from '../../model/model-table.js';
import { defineGuard } from '../define-guard.js';
import { exactRequestTokens, loadCl100k } from '../../model/exact-token-count.js';
import { requestTokens } from '../../model/token-estimate.js';
import { compactTranscript } from '../context/compact-transcript.js';
import type { Guard, LoopContext, ModelCallResult, SendModelRequest } from '../guard.js';
import { modelLatencyMs } from '../model-latency.js';
import { classifyModelError, describeModelError } from '../model-errors.js';
import { STUCK_TOOL_NAME } from './stuck-tool.js';

/** The question the last rung puts to the human, through the stuck tool. */
export const LADDER_QUESTION =
  "I've made progress but I'm losing context faster than I can recover. Keep going, change direction, or stop?";

export interface ContextCompactionOptions {
  /** The model's context window in tokens (the model table's, or a scenario's smaller one). */
  readonly contextWindow: number;
  /** Share of the window the request estimate may reach before compaction. @default 0.7 */
  readonly threshold?: number;
  /** Messages kept verbatim by a compaction (R1, and on a 413). @default 10 */
  readonly keepLast?: number;
  /** Messages kept verbatim by a deep prune (R2). @default 4 */
  readonly deepKeepLast?: number;
  /** Pin the latest successful result of each tool into the summary. @default true */
  readonly pin?: boolean;
  /** The cheap model that writes summaries. @default CHEAP_MODEL_ID */
  readonly summaryModel?: string;
  /** Output limit of a summary call: a summary longer than this is cut. @default 512 */
  readonly summaryMaxTokens?: number;
  /** A crossing within this many model calls of the last rung, with no progress since, climbs to the next rung. @default 20 */
  readonly ladderWindow?: number;
  /** Rungs fired per run, at most; after that the loop runs on to its limits. @default 4 */
  readonly maxRecoveries?: number;
  /** On a 413, compact once and resend; a second 413 ends the run. @default true */
  readonly reactive?: boolean;
  /**
   * How the request is counted against the threshold: the shared estimator (cached per
   * message), or an exact cl100k_base count with js-tiktoken (a real BPE tokenizer as a
   * proxy for Claude's; `spiralbench bench` shows its cost). @default 'estimate'
   */
  readonly counter?: 'estimate' | 'cl100k';
  /** Text added after every summary (the run journal). @default none */
  readonly appendix?: () => string;
}

/** The transcript with `text` added to its last user message (a copy: messages are never edited). */
function withUserText(messages: readonly MessageParam[], text: string): MessageParam[] {
  const last = messages.at(-1);
  const block: TextBlockParam = { type: 'text', text };
  if (last?.role !== 'user') return [...messages, { role: 'user', content: [block] }];
  const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [...messages.slice(0, -1), { role: 'user', content: [...content, block] }];
}

/** The fingerprint (name and input) of the tool call with this id, from the assistant turns. */
function callOf(messages: readonly MessageParam[], id: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use' && block.id === id) return `${block.name} ${JSON.stringify(block.input)}`;
    }
  }
  return undefined;
}

/**
 * Context management: keeps the request under `threshold` of the context window.
 *
 * Before a model call whose estimate (system, tools, messages; cached per message) is
 * over the threshold, it climbs a recovery ladder:
 * - R1 compact: the last `keepLast` messages stay verbatim, the older part becomes one
 *   summary written by a call to `summaryModel`, with the latest successful result of
 *   each tool pinned as plain text (if `pin`); a failed summary call falls back to
 *   dropping the older part with a notice;
 * - R2 deep prune, when it is over again within `ladderWindow` calls of R1 with no
 *   progress in between: the same, keeping only `deepKeepLast` messages, marked as deep-pruned;
 * - R3, when over again within `ladderWindow` calls of R2, again with no progress: forces
 *   the stuck tool with LADDER_QUESTION (when the arm offers it).
 * Progress is a good result of a call the run had not made before (its name and input):
 * a run that keeps reading new sources outgrows the window because the task is long, not
 * because it spirals, and asking a person would give up on work that compaction and a run
 * journal can carry. A crossing after progress, or later than `ladderWindow` calls after
 * the last rung, starts again at R1. At most `maxRecoveries` rungs fire per run.
 *
 * On a 413 (request too large) it compacts once and resends; a second 413 for the same
 * call ends the run `failed` (the circuit breaker), and nothing else is added to the
 * context while it recovers. It sits outside LLM-call recovery, so it sees a 413 only
 * once transient faults are ridden out, and its summary calls get the same recovery.
 *
 * @example
 * contextCompaction({ contextWindow: 200_000, threshold: 0.7, keepLast: 10, pin: true })
 */
export function contextCompaction({
  contextWindow,
  threshold = DEFAULTS.threshold,
  keepLast = DEFAULTS.keepLast,
  deepKeepLast = DEFAULTS.deepKeepLast,
  pin = DEFAULTS.pin,
  summaryModel = DEFAULTS.summaryModel,
  summaryMaxTokens = DEFAULTS.summaryMaxTokens,
  ladderWindow = DEFAULTS.ladderWindow,
  maxRecoveries = DEFAULTS.maxRecoveries,
  reactive = DEFAULTS.reactive,
  counter = DEFAULTS.counter,
  appendix = () => '',
}: ContextCompactionOptions): Guard {
  const limit = threshold * contextWindow;
  const count = async (request: ModelRequest): Promise<number> =>
    counter === 'cl100k' ? exactRequestTokens(await loadCl100k(), request) : requestTokens(request);
  let recoveries = 0;
  let lastRung: { readonly rung: 1 | 2 | 3; readonly iteration: number } | null = null;
  // Progress: a call with a good result the run had not made before. Read from the
  // messages the loop appended since the last request this guard saw.
  const made = new Set<string>();
  let read = 0;
  let progressSinceRung = false;
  const noteProgress = (messages: readonly MessageParam[]): void => {
    for (const message of messages.slice(read)) {
      if (message.role !== 'user' || typeof message.content === 'string') continue;
      for (const block of message.content) {
        if (block.type !== 'tool_result' || block.is_error === true) continue;
        const call = callOf(messages, block.tool_use_id);
        if (call !== undefined && !made.has(call)) {
          made.add(call);
          progressSinceRung = true;
        }
      }
    }
    read = messages.length;
  };
  // A wrapper outside this one (output-limit recovery) may resend the same request: it
  // gets the same compacted transcript instead of a second summary call.
  let reuse: {
    readonly from: readonly MessageParam[];
    readonly length: number;
    readonly last: MessageParam | undefined;
    readonly to: ModelRequest;
  } | null = null;

  const compact = async (
    ctx: LoopContext,
    request: ModelRequest,
    next: SendModelRequest,
    deep: boolean,
    trigger: 'threshold' | 'too_large',
  ): Promise<MessageParam[] | null> => {
    const compaction = await compactTranscript({
      request,
      keepLast: deep ? deepKeepLast : keepLast,
      deep,
      pin,
      summaryModel,
      summaryMaxTokens,
      turnsSoFar: ctx.iteration,
      appendix: appendix(),
      async summarise(summaryRequest) {
        const result = await next(summaryRequest);
        return result.kind === 'reply' ? result.message : null;
      },
    });
    if (compaction === null) return null;
    const usage = compaction.reply?.usage;
    if (usage !== undefined) ctx.clock.sleep(modelLatencyMs(usage));
    const beforeTokens = await count(request);
    const afterTokens = await count({ ...request, messages: compaction.messages });
    ctx.emit({
      type: 'agent.compaction.run',
      at: ctx.clock.now(),
      trigger,
      deep,
      summary: compaction.summary,
      beforeTokens,
      afterTokens,
      beforeMessages: request.messages.length,
      afterMessages: compaction.messages.length,
      pinned: compaction.pinned,
      summaryModel: compaction.reply?.model ?? summaryModel,
      summaryInputTokens: usage === undefined ? 0 : promptTokens(usage),
      summaryOutputTokens: usage?.output_tokens ?? 0,
      summaryCostUsd: usage === undefined ? 0 : usageCost(compaction.reply?.model ?? summaryModel, usage),
    });
    return compaction.messages;
  };

  /** The next rung's transcript and request, or null when the rung has nothing to change. */
  const climb = async (
    ctx: LoopContext,
    request: ModelRequest,
    next: SendModelRequest,
    tokens: number,
  ): Promise<ModelRequest | null> => {
    const rung: 1 | 2 | 3 =
      lastRung !== null && ctx.iteration - lastRung.iteration <= ladderWindow && !progressSinceRung
        ? (Math.min(3, lastRung.rung + 1) as 2 | 3)
        : 1;
    recoveries += 1;
    lastRung = { rung, iteration: ctx.iteration };
    progressSinceRung = false;
    ctx.emit({
      type: 'agent.recovery.fired',
      at: ctx.clock.now(),
      rung,
      iteration: ctx.iteration,
      tokens,
      count: recoveries,
    });
    if (rung === 3) {
      const offered = (request.tools ?? []).some((tool) => 'name' in tool && tool.name === STUCK_TOOL_NAME);
      if (!offered) return null;
      const text = `The conversation keeps outgrowing the context window after compaction. Ask the human with ${STUCK_TOOL_NAME}: "${LADDER_QUESTION}"`;
      return {
        ...request,
        messages: withUserText(request.messages, text),
        tool_choice: { type: 'tool', name: STUCK_TOOL_NAME },
      };
    }
    // R1 with too short a transcript to keep ten messages of falls through to a deep prune.
    const messages =
      (await compact(ctx, request, next, rung === 2, 'threshold')) ??
      (rung === 1 ? await compact(ctx, request, next, true, 'threshold') : null);
    return messages === null ? null : { ...request, messages };
  };

  return {
    name: 'compact',
    async aroundModelCall(ctx, request, next): Promise<ModelCallResult> {
      let sent = request;
      const { messages } = request;
      if (
        reuse !== null &&
        reuse.from === messages &&
        reuse.length === messages.length &&
        reuse.last === messages.at(-1)
      ) {
        const { tool_choice: choice } = reuse.to;
        sent = { ...request, messages: reuse.to.messages, ...(choice === undefined ? {} : { tool_choice: choice }) };
      } else if (recoveries < maxRecoveries) {
        noteProgress(messages);
        // The estimate stays synchronous: this runs before every model call.
        const tokens = counter === 'estimate' ? requestTokens(request) : await count(request);
        if (tokens > limit) {
          sent = (await climb(ctx, request, next, tokens)) ?? request;
          if (sent !== request) reuse = { from: messages, length: messages.length, last: messages.at(-1), to: sent };
        }
      }
      let result = await next(sent);
      if (reactive && result.kind === 'error' && classifyModelError(result.error) === 'too_large') {
        // Deeper if this call was already compacted: the same cut would change nothing.
        const compacted = await compact(ctx, sent, next, sent !== request, 'too_large');
        if (compacted === null) return result;
        sent = { ...sent, messages: compacted };
        result = await next(sent);
        if (result.kind === 'error' && classifyModelError(result.error) === 'too_large') {
          return {
            kind: 'stop',
            outcome: {
              kind: 'failed',
              reason: `model call failed, request too large even after compaction (circuit breaker): ${describeModelError(result.error)}`,
              error: result.error,
            },
          };
        }
      }
      if (sent !== request) read = sent.messages.length;
      return sent !== request && result.kind === 'reply' ? { ...result, messages: sent.messages } : result;
    },
  };
}

/**
 * Context management in an arm. The window is the run's (the model's, or the scenario's
 * smaller one); the run journal is shown after every summary when the arm keeps one.
 */
export const contextCompactionGuard = defineGuard({
  name: 'compact',
  settings: z.strictObject({
    threshold: z.number().gt(0).max(1).default(0.7),
    keepLast: z.number().int().min(1).default(10),
    deepKeepLast: z.number().int().min(1).default(4),
    pin: z.boolean().default(true),
    summaryModel: z.string().min(1).default(CHEAP_MODEL_ID),
    summaryMaxTokens: z.number().int().min(1).default(512),
    ladderWindow: z.number().int().min(0).default(20),
    maxRecoveries: z.number().int().min(0).default(4),
    reactive: z.boolean().default(true),
    counter: z.enum(['estimate', 'cl100k']).default('estimate'),
  }),
  events: ['agent.compaction.run', 'agent.recovery.fired'],
  build: (settings, { contextWindow, journal, has }) =>
    contextCompaction({
      ...settings,
      contextWindow,
      appendix: has('journal') ? () => (journal.isEmpty ? '' : journal.render()) : () => '',
    }),
});

const DEFAULTS = contextCompactionGuard.defaults;
