import type {
  CacheControlEphemeral,
  ContentBlock,
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages';
import { VirtualClock } from '../clock/virtual-clock.js';
import { DEFAULT_MODEL_ID, type ModelClient, type ModelRequest } from '../model/model-client.js';
import { promptTokens, usageCost } from '../model/usage.js';
import { EPHEMERAL, EPHEMERAL_HOUR, markedTools, markForCaching } from './prompt-caching.js';
import {
  RESUMABLE_BOUNDARIES,
  systemPromptHash,
  type CheckpointBoundary,
  type RunDurability,
  type SavedRun,
} from './durability.js';
import type { AgentEvent, EventListener } from './events.js';
import type { FinalTurnOutcome, Guard, LoopContext } from './guard.js';
import { callModel } from './model-call.js';
import { describeModelError } from './model-errors.js';
import { modelLatencyMs } from './model-latency.js';
import type { RunMetrics, RunOutcome, RunResult } from './outcome.js';
import type { ToolHost } from './tool-host.js';
import { runToolCall, type ToolCallParts } from './tool-call.js';
import { earlyStartTimes } from './early-tool-start.js';
import { TurnLanes } from './turn-lanes.js';
import { offeredTools } from './offered-tools.js';
import { guardHooks, type GuardHooks } from './guard-hooks.js';
import { GuardThrew } from './guard-threw.js';
import type { StreamingOptions } from './streamed-reply.js';
import { contentText } from '../model/content-text.js';

/**
 * What a loop runs with: the model, the tools, the guards, and the limits every arm shares.
 *
 * @example
 * const options: LoopOptions = {
 *   model: new AnthropicModelClient({ apiKey: process.env.ANTHROPIC_API_KEY! }),
 *   tools: myToolHost,
 *   guards: [stuckTool(), toolBudget({ maxToolCalls: 15 })],
 *   system: 'You are a careful data assistant.',
 * };
 */
export interface LoopOptions {
  readonly model: ModelClient;
  /**
   * Model id sent in each request. A function is asked before every model call: a
   * configuration that can change while the run goes on (a reload, a flag, a deploy).
   * @default DEFAULT_MODEL_ID
   */
  readonly modelId?: string | (() => string);
  readonly tools: ToolHost;
  /** The arm's safeguards, in the order they are consulted. @default [] */
  readonly guards?: readonly Guard[];
  readonly system?: string;
  /** Output token limit per model call. @default 1024 */
  readonly maxTokens?: number;
  /** Model calls before the run stops with `max_iterations`; the ceiling every arm has. @default 250 */
  readonly maxIterations?: number;
  /** @default a new clock at 0 */
  readonly clock?: VirtualClock;
  readonly onEvent?: EventListener;
  readonly signal?: AbortSignal;
  /** Messages of an earlier session the run continues (before the prompt); taken as given. */
  readonly history?: readonly MessageParam[];
  /** Checkpoints at safe boundaries and the idempotency envelope of tool calls; none by default. */
  readonly durability?: RunDurability;
  /**
   * Stream each reply (`stream: true`): text passed on as it arrives, read-only calls
   * started as their blocks end (docs/streaming.md). The replies, and so every decision,
   * are the same as without; only the virtual time differs. @default undefined (not streamed)
   */
  readonly stream?: StreamingOptions;
  /**
   * Mark each request for the provider's prompt cache: the last tool definition, and the
   * request's top-level `cache_control` (the last block), so each call reads the
   * transcript the call before wrote at a tenth of the input price. The Messages API
   * honours the marks; a Chat Completions server caches on its own and the client drops
   * them. Off for a provider that refuses the field; `{ ttl: '1h' }` for calls minutes
   * apart (a batched sweep), whose writes cost 2× input instead of 1.25×. @default true
   */
  readonly promptCaching?: boolean | { readonly ttl: '5m' | '1h' };
}

/**
 * An agent loop over the Anthropic Messages API: call the model, run the tools it asks
 * for, repeat until it answers in text or a guard or limit stops it. Safeguards plug in
 * as guards; without any, only the iteration ceiling ends a spiral.
 *
 * @example
 * const loop = new BudgetedAgentLoop({ model, tools, guards: [toolBudget({ maxToolCalls: 15 })] });
 * const result = await loop.run('Fetch user u_1042 ...');
 */
export class BudgetedAgentLoop {
  readonly #options: LoopOptions;
  /** The mark the loop's requests carry, or null when they are sent unmarked. */
  readonly #caching: CacheControlEphemeral | null;
  readonly #tools: readonly Tool[];
  readonly #hooks: GuardHooks;
  readonly #toolCalls: ToolCallParts;

  constructor(options: LoopOptions) {
    this.#options = options;
    const caching = options.promptCaching ?? true;
    this.#caching = caching === false ? null : caching !== true && caching.ttl === '1h' ? EPHEMERAL_HOUR : EPHEMERAL;
    this.#tools = offeredTools(options.tools.definitions, options.guards ?? []);
    this.#hooks = guardHooks(options.guards ?? []);
    this.#toolCalls = {
      guards: options.guards ?? [],
      hooks: this.#hooks,
      host: options.tools,
      durability: options.durability,
    };
  }

  // Not async: it hands on #drive's promise, where an async wrapper would add a hop.
  run(prompt: string): Promise<RunResult> {
    const messages: MessageParam[] = [...(this.#options.history ?? []), { role: 'user', content: prompt }];
    return this.#drive(messages, {
      toolCalls: 0,
      toolExecutions: 0,
      toolRetries: 0,
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      virtualMs: 0,
      modelRetries: 0,
      costUsd: 0,
    });
  }

  /**
   * Continues a run from its last checkpoint (in a new process, after a crash). The calls
   * of an interrupted turn are settled through the idempotency envelope first: a
   * completed call is replayed from the store without running the tool, a started one
   * runs again only if the tool is idempotent (a side-effecting one halts the run
   * `waiting_on_human`: never a duplicate write), one never started runs. A changed
   * system prompt halts it too. Guards start afresh; counts and the transcript do not.
   */
  async resume(saved: SavedRun): Promise<RunResult> {
    if (!RESUMABLE_BOUNDARIES.has(saved.boundary))
      throw new Error(`a run whose last checkpoint is '${saved.boundary}' has ended and cannot be resumed`);
    return this.#drive([...saved.messages], { ...saved.metrics }, saved);
  }

  async #drive(
    messages: MessageParam[],
    metrics: { -readonly [K in keyof RunMetrics]: RunMetrics[K] },
    resumed?: SavedRun,
  ): Promise<RunResult> {
    const { model, tools: host, signal, onEvent, durability } = this.#options;
    const guards = this.#options.guards ?? [];
    const hooks = this.#hooks;
    const maxIterations = this.#options.maxIterations ?? 250;
    const clock = this.#options.clock ?? new VirtualClock();
    const concurrent = guards.some((guard) => guard.concurrentTools === true);
    const emit = (event: AgentEvent): void => {
      if (event.type === 'agent.tool.retry') metrics.toolRetries += 1;
      if (event.type === 'agent.model.retry') metrics.modelRetries += 1;
      // A summary call is paid for like any model call, though it is not a turn of the run.
      if (event.type === 'agent.compaction.run') {
        metrics.inputTokens += event.summaryInputTokens;
        metrics.outputTokens += event.summaryOutputTokens;
        metrics.costUsd += event.summaryCostUsd;
      }
      onEvent?.(event);
    };
    const toolTraits = (name: string) => host.traits(name);
    const context = (on = clock): LoopContext => ({
      clock: on,
      emit,
      toolCalls: metrics.toolCalls,
      toolExecutions: metrics.toolExecutions,
      toolTraits,
      iteration: metrics.modelCalls,
      messages,
    });
    const checkpoint = (boundary: CheckpointBoundary): void =>
      durability?.checkpoint(boundary, { messages, metrics: { ...metrics, virtualMs: clock.now() }, at: clock.now() });
    const finish = (outcome: RunOutcome): RunResult => {
      checkpoint(
        outcome.kind === 'completed'
          ? 'final_response'
          : outcome.kind === 'escalated' || outcome.kind === 'waiting_on_human'
            ? 'human_pause'
            : 'run_ended',
      );
      if (outcome.kind === 'failed') emit({ type: 'agent_run.failed', at: clock.now(), reason: outcome.reason });
      if (outcome.kind === 'cancelled') emit({ type: 'agent_run.cancelled', at: clock.now(), reason: outcome.reason });
      emit({ type: 'agent_run.completed', at: clock.now(), outcome: outcome.kind });
      const done: RunMetrics = { ...metrics, virtualMs: clock.now() };
      return { outcome, metrics: done, messages };
    };
    const cancelled = (): RunResult => finish({ kind: 'cancelled', reason: String(signal?.reason ?? 'aborted') });
    const safe = (name: string): boolean => host.traits(name)?.concurrencySafe === true;

    try {
      // A tool the last turn's guards force the next call to (tool_choice), if any.
      let forcedTool: string | null = null;
      if (resumed === undefined) {
        emit({ type: 'agent_run.started', at: clock.now() });
        checkpoint('user_input');
      } else {
        emit({ type: 'agent_run.resumed', at: clock.now(), boundary: resumed.boundary });
        if (resumed.systemHash !== systemPromptHash(this.#options.system)) {
          return finish({
            kind: 'waiting_on_human',
            reason: 'the system prompt changed since the run was checkpointed',
          });
        }
        const settled = await this.#settleInterruptedTurn(messages, context, metrics);
        if (settled !== null) return finish(settled);
        if (messages.at(-1)?.role === 'user') checkpoint('tool_results');
      }
      for (;;) {
        // Phase 1: limits and guards, before the next model call.
        if (signal?.aborted) return cancelled();
        if (metrics.modelCalls >= maxIterations)
          return finish({ kind: 'max_iterations', iterations: metrics.modelCalls });
        let finalTurn: FinalTurnOutcome | null = null;
        for (const guard of hooks.beforeModelCall) {
          const decision = guard.beforeModelCall(context());
          if (decision === undefined) continue;
          if (decision.kind === 'stop') return finish(decision.outcome);
          appendUserText(messages, decision.message);
          finalTurn = decision.outcome;
          break;
        }

        // Phase 2: the model call.
        let request = this.#request(
          messages,
          finalTurn !== null ? { type: 'none' } : forcedTool !== null ? { type: 'tool', name: forcedTool } : null,
        );
        forcedTool = null;
        for (const guard of hooks.prepareRequest) {
          const prepared = guard.prepareRequest(request, context());
          request = prepared instanceof Promise ? await prepared : prepared;
        }
        if (request.messages !== messages) {
          messages.splice(0, messages.length, ...request.messages);
          request = { ...request, messages };
        }
        // A guard may have sent other tools: they are marked too.
        if (this.#caching !== null) request = markForCaching(request, this.#caching);
        const call = await callModel(model, request, guards, context(), signal, this.#options.stream);
        if (call.kind === 'stop') return finish(call.outcome);
        if (call.kind === 'error') {
          // An abort surfaces as the client's rejection; it is still the user's cancellation.
          if (signal?.aborted) return cancelled();
          return finish({
            kind: 'failed',
            reason: `model call failed: ${describeModelError(call.error)}`,
            error: call.error,
          });
        }
        if (call.messages !== undefined && call.messages !== messages)
          messages.splice(0, messages.length, ...call.messages);
        let reply = call.message;
        metrics.modelCalls += 1;
        const { usage } = reply;
        const inputTokens = promptTokens(usage);
        metrics.inputTokens += inputTokens;
        metrics.outputTokens += usage.output_tokens;
        metrics.cacheReadTokens += usage.cache_read_input_tokens ?? 0;
        metrics.cacheWriteTokens += usage.cache_creation_input_tokens ?? 0;
        // Priced by the model that answered (a fallback is cheaper than the primary).
        metrics.costUsd += usageCost(reply.model, usage);
        clock.sleep(modelLatencyMs(usage));
        emit({
          type: 'agent.model.call',
          at: clock.now(),
          iteration: metrics.modelCalls,
          inputTokens,
          outputTokens: usage.output_tokens,
        });
        let continuation: string | null = null;
        // A reply a guard changed is not the stream that arrived: none of its calls started early.
        let timing = this.#options.stream?.earlyToolStart === false ? undefined : call.timing;
        for (const guard of hooks.afterModelReply) {
          const decision = guard.afterModelReply(reply, context());
          if (decision === undefined) continue;
          reply = decision.reply;
          timing = undefined;
          if (decision.kind === 'continue') continuation = decision.message;
          break;
        }
        messages.push({ role: 'assistant', content: reply.content });
        if (continuation !== null) {
          // Checkpointed with the continuation: a resume must not take the cut-off reply for an answer.
          messages.push({ role: 'user', content: [{ type: 'text', text: continuation }] });
          checkpoint('user_input');
          continue;
        }
        checkpoint('model_response');

        const calls = reply.content.filter(isToolUse);
        if (finalTurn === 'budget_exhausted')
          return finish({ kind: finalTurn, finalText: contentText(reply.content), toolCalls: metrics.toolCalls });
        if (finalTurn === 'timed_out')
          return finish({
            kind: finalTurn,
            limit: 'soft',
            finalText: contentText(reply.content),
            elapsedMs: clock.now(),
          });
        if (calls.length === 0) return finish({ kind: 'completed', finalText: contentText(reply.content) });

        // Phase 3: the tool calls of this turn, results in request order, each on the lane
        // TurnLanes gives it: with concurrency, a run of concurrency-safe calls together;
        // streamed, the leading read-only calls from when their blocks ended. A call that
        // answers with a promise is awaited before the next one starts, so guards see the
        // same counts and tools the same order of executions whatever mix of synchronous and
        // asynchronous tools a turn has; running together is a matter of the lanes' clocks.
        const results: ToolResultBlockParam[] = [];
        const lanes = new TurnLanes(
          clock,
          concurrent,
          timing === undefined ? undefined : earlyStartTimes(calls, reply, timing, clock.now(), safe),
        );
        for (let i = 0; i < calls.length; i++) {
          const call = calls[i]!;
          const lane = lanes.open(i, safe(call.name));
          if (lane.now() < clock.now())
            emit({
              type: 'agent.tool.early_start',
              at: lane.now(),
              id: call.id,
              tool: call.name,
              leadMs: clock.now() - lane.now(),
            });
          const answer = runToolCall(call, context(lane), metrics, this.#toolCalls);
          const outcome = answer instanceof Promise ? await answer : answer;
          if (outcome.kind === 'stop') return finish(outcome.outcome);
          results.push(outcome.block);
          lanes.close(i, lane);
        }
        lanes.settle();
        messages.push({ role: 'user', content: results });

        if (signal?.aborted) return cancelled();
        for (const guard of hooks.afterToolBatch) {
          const decision = guard.afterToolBatch(context());
          if (decision === undefined) continue;
          if (decision.kind === 'stop') return finish(decision.outcome);
          appendUserText(messages, decision.message);
          if (decision.forceTool !== undefined) forcedTool = decision.forceTool;
          break;
        }
        // After the guards' words are in: a resume reads them as the model would have.
        checkpoint('tool_results');
      }
    } catch (error) {
      // A guard's own code threw: this run ends failed, naming it; the sweep goes on.
      if (error instanceof GuardThrew) return finish({ kind: 'failed', reason: error.message, error });
      throw error;
    }
  }

  /**
   * The calls of the turn a crash interrupted (the transcript ends with the model's
   * reply), settled through the envelope and answered, so the loop goes on from a whole
   * turn. A reply without calls was the final answer: the run had completed.
   */
  async #settleInterruptedTurn(
    messages: MessageParam[],
    context: () => LoopContext,
    metrics: { toolCalls: number; toolExecutions: number },
  ): Promise<RunOutcome | null> {
    const last = messages.at(-1);
    if (last?.role !== 'assistant' || typeof last.content === 'string') return null;
    const calls = last.content.filter(isToolUse);
    if (calls.length === 0) return { kind: 'completed', finalText: contentText(last.content) };
    const results: ToolResultBlockParam[] = [];
    for (const call of calls) {
      // A fresh context per call, as in a live turn: the budget counts the calls before it.
      const outcome = await runToolCall(call, context(), metrics, this.#toolCalls, true);
      if (outcome.kind === 'stop') return outcome.outcome;
      results.push(outcome.block);
    }
    messages.push({ role: 'user', content: results });
    return null;
  }

  /** The next request, over the live transcript, with `toolChoice` when a guard set one. */
  #request(messages: MessageParam[], toolChoice: ToolChoice | null): ModelRequest {
    const request: ModelRequest = {
      model: configuredModel(this.#options.modelId),
      max_tokens: this.#options.maxTokens ?? 1024,
      // The live transcript, not a copy: clients read a request during the call only
      // (see ModelClient), and a copy per call made long runs quadratic.
      messages,
      tools: this.#caching === null ? (this.#tools as Tool[]) : markedTools(this.#tools, this.#caching),
    };
    if (this.#caching !== null) request.cache_control = this.#caching;
    if (this.#options.system !== undefined) request.system = this.#options.system;
    if (toolChoice !== null) request.tool_choice = toolChoice;
    return request;
  }
}

function configuredModel(modelId: LoopOptions['modelId']): string {
  return modelId === undefined ? DEFAULT_MODEL_ID : typeof modelId === 'string' ? modelId : modelId();
}

/** A module-level predicate: an arrow written in the loop would be a new closure every turn. */
function isToolUse(block: ContentBlock | ContentBlockParam): block is ToolUseBlock {
  return block.type === 'tool_use';
}

/** Add text to the last user message without mutating it (token counts are cached per message). */
function appendUserText(messages: MessageParam[], text: string): void {
  const last = messages.at(-1);
  const block: TextBlockParam = { type: 'text', text };
  if (last?.role === 'user') {
    const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    messages[messages.length - 1] = { role: 'user', content: [...content, block] };
  } else {
    messages.push({ role: 'user', content: [block] });
  }
}
