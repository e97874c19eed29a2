import type { ContentBlockParam, MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../loop/events.js';
import type {
  ExecutionContext,
  FinalTurnOutcome,
  Guard,
  LoopContext,
  ModelCallResult,
  SendModelRequest,
} from '../loop/guard.js';
import { guardHooks, type GuardHooks } from '../loop/guard-hooks.js';
import { STUCK_TOOL } from '../loop/guards/stuck-tool.js';
import type { RunOutcome } from '../loop/outcome.js';
import type { ToolTraits } from '../loop/tool-host.js';
import { DEFAULT_MODEL_ID, type Message, type ModelRequest } from '../model/model-client.js';
import type { MaybePromise } from '../tools/maybe-promise.js';
import { handlerException, type ToolExecution } from '../tools/tool-execution.js';
import { ToolError } from '../tools/tool-error.js';
import { buildHostedGuards, type GuardChoice, type HostedRun, type SessionPreset } from './hosted-guards.js';
import { modelErrorOf } from './model-error-of.js';
import type { ModelCallOutcome, ReadReply, ToolCallAnswer, ToolCallInput, TurnPlan } from './session-values.js';
import { HostedClock, type SessionClock } from './session-clock.js';
import { SessionTranscript } from './session-transcript.js';
import { wallClock } from './wall-clock.js';

/** What a session is built from. */
export interface GuardSessionOptions extends HostedRun {
  /** A preset (`'article'`, `'all'`), a choice of safeguards with their settings, or guards already built. */
  readonly guards: SessionPreset | GuardChoice | readonly Guard[];
  /**
   * What each tool declares (writes to the world?); a write is never retried
   * automatically. @default every tool side-effecting (nothing retried) but the guards' own
   */
  readonly toolTraits?: (name: string) => ToolTraits | undefined;
  /** The system prompt, which a guard may extend (the journal's digest). */
  readonly system?: string;
  /** `max_tokens` of the requests guards see. @default 1024 */
  readonly maxTokens?: number;
  /** @default wallClock(): waits really waited, never blocking */
  readonly clock?: SessionClock;
  /** Hears every guard event (retries, blocked repeats, escalations, ...). */
  readonly onEvent?: (event: AgentEvent) => void;
  /**
   * The run's cancellation. Once aborted, nothing is retried, a wait owed ends at once, a
   * failed tool call is a `cancelled` error, and a model call rethrows the abort.
   * `toolCall` (`call.signal`) and `callModel` also take the framework's signal of the moment. @default none
   */
  readonly signal?: AbortSignal | undefined;
}

export type { ModelCallOutcome, ReadReply, ToolCallAnswer, ToolCallInput, TurnPlan } from './session-values.js';

/** Traits of a tool the session knows nothing about: a possible write, never retried blindly. */
const UNKNOWN_TOOL: ToolTraits = Object.freeze({ sideEffecting: true, concurrencySafe: false });
const GUARD_TOOL: ToolTraits = Object.freeze({ sideEffecting: false, concurrencySafe: false });

/**
 * Our built-in guards, hosted for a framework's loop: the same guard objects our loop
 * consults, called at the framework's extension points, over a transcript kept in the
 * Messages shape. A framework adapter calls, per step: `nextTurn` before the model call
 * (once the step's tools are done), `callModel` around it, `toolCall` around each tool
 * call, and `outcome` when its loop ends. docs/middleware.md maps each onto AI SDK and
 * LangChain hooks.
 *
 * @example
 * const session = createGuardSession({ guards: 'article', toolTraits: (name) => ({ sideEffecting: name.startsWith('send_'), concurrencySafe: false }) });
 * const plan = session.nextTurn(); // before each model call
 * const answer = await session.toolCall({ id, name, input }, () => runTheTool(input));
 */
export class GuardSession {
  /** Every tool a guard may offer; the framework registers them all and offers `TurnPlan.guardTools` each step. */
  readonly tools: readonly Tool[];
  readonly guards: readonly Guard[];
  readonly #hooks: GuardHooks;
  readonly #clock: HostedClock;
  readonly #transcript = new SessionTranscript();
  readonly #options: GuardSessionOptions;
  readonly #guardToolNames: ReadonlySet<string>;
  #toolCalls = 0;
  #toolExecutions = 0;
  #modelCalls = 0;
  #stopped: RunOutcome | null = null;
  #plan: TurnPlan | null = null;
  #finalTurn: FinalTurnOutcome | null = null;
  #finalReply: string | null = null;
  #forcedTool: string | null = null;
  #batchOpen = false;
  #words: string[] = [];
  #calls: Promise<unknown> = Promise.resolve();
  #signal: AbortSignal | undefined;
  readonly #watched: AbortSignal[] = [];

  constructor(options: GuardSessionOptions) {
    this.#options = options;
    this.#watch(options.signal);
    const clock = options.clock ?? wallClock();
    const streamKey = options.streamKey ?? clock.streamKey;
    this.guards = buildHostedGuards(options.guards, streamKey === undefined ? options : { ...options, streamKey });
    this.#hooks = guardHooks(this.guards);
    this.#clock = new HostedClock(clock);
    const tools: Tool[] = [];
    for (const guard of this.guards) for (const tool of guard.tools ?? []) if (!tools.includes(tool)) tools.push(tool);
    // Loop detection offers the stuck tool only for the turn it forces: it must be registered all the same.
    if (this.guards.some((guard) => guard.name === 'loops') && !tools.includes(STUCK_TOOL)) tools.push(STUCK_TOOL);
    this.tools = tools;
    this.#guardToolNames = new Set(tools.map((tool) => tool.name));
  }

  /** A guard's decision to end the run, once one has been taken. */
  get stopped(): RunOutcome | null {
    return this.#stopped;
  }

  /** The transcript the guards read (Messages shape). */
  get messages(): readonly MessageParam[] {
    return this.#transcript.messages;
  }

  /** The framework's opening turns (history and prompt), before the first model call. */
  open(messages: readonly MessageParam[]): void {
    this.#transcript.open(messages);
  }

  /**
   * Before a model call, once the last step's tool calls are all done: the words loop
   * detection has for the model after that batch, then the budget's final turn or a stop.
   * Decided once per turn; asking again before the model call returns the same plan.
   */
  nextTurn(): TurnPlan {
    if (this.#plan !== null) return this.#plan;
    if (this.#stopped !== null) return (this.#plan = { kind: 'stop', outcome: this.#stopped });
    this.#endBatch();
    if (this.#stopped !== null) return (this.#plan = { kind: 'stop', outcome: this.#stopped });
    if (this.#finalTurn !== null)
      return (this.#plan = { kind: 'stop', outcome: this.outcome(this.#finalOutcomeBase()) });
    for (const guard of this.#hooks.beforeModelCall) {
      const decision = guard.beforeModelCall(this.#context());
      if (decision === undefined) continue;
      if (decision.kind === 'stop') return this.#stop(decision.outcome);
      this.#say(decision.message);
      this.#finalTurn = decision.outcome;
      break;
    }
    let request = this.#request();
    for (const guard of this.#hooks.prepareRequest) {
      const prepared = guard.prepareRequest(request, this.#context());
      // Only synchronous preparations can be hosted: a framework's step hook is where they run.
      if (prepared instanceof Promise)
        throw new TypeError(`the '${guard.name}' guard prepares requests asynchronously`);
      request = prepared;
    }
    const words = this.#words;
    this.#words = [];
    const forced = this.#forcedTool;
    this.#forcedTool = null;
    const system = typeof request.system === 'string' ? request.system : undefined;
    return (this.#plan = {
      kind: 'call',
      append: words,
      toolChoice: this.#finalTurn !== null ? 'none' : forced !== null ? { type: 'tool', name: forced } : 'auto',
      guardTools: (request.tools ?? []).flatMap((tool) => ('name' in tool ? [tool.name] : [])),
      system: system === this.#options.system ? undefined : system,
      finalTurn: this.#finalTurn !== null,
    });
  }

  /**
   * One model call through the guards' wrappers (LLM-call recovery: retries with backoff,
   * a fallback model). `send(model)` makes the call with the framework's own client on
   * `model` (the one asked for, or the fallback) and resolves to its reply or throws;
   * `read` gives the reply in the Messages shape. Waits are paid before each attempt.
   * The answered reply joins the transcript. Rethrow an `error`; end the run on a `stop`.
   */
  async callModel<R>(
    send: (model: string) => Promise<R>,
    read: (reply: R) => ReadReply,
    signal?: AbortSignal,
  ): Promise<ModelCallOutcome<R>> {
    this.#watch(signal);
    this.nextTurn();
    this.#plan = null;
    let last: R | undefined;
    // Guards read errors as the Anthropic SDK's classes; the framework gets back what it threw.
    const thrown = new Map<unknown, unknown>();
    let next: SendModelRequest = async (request) => {
      await this.#clock.settle(this.#signal);
      // Cancelled: no call, and no recovery of one (a retry or a fallback).
      if (this.#aborted()) throw this.#signal?.reason;
      try {
        last = await send(request.model);
      } catch (error) {
        if (this.#aborted()) throw error;
        const read = modelErrorOf(error);
        thrown.set(read, error);
        return { kind: 'error', error: read };
      }
      return { kind: 'reply', message: asMessage(read(last), request.model) };
    };
    for (const guard of this.guards) {
      const around = guard.aroundModelCall;
      if (around === undefined) continue;
      const inner = next;
      next = (sent) => around.call(guard, this.#context(), sent, inner);
    }
    const result: ModelCallResult = await next(this.#request());
    if (result.kind === 'stop') {
      this.#stop(result.outcome);
      return result;
    }
    if (result.kind === 'error') return { kind: 'error', error: thrown.get(result.error) ?? result.error };
    this.replied(result.message.content as readonly ContentBlockParam[]);
    return { kind: 'reply', reply: last as R };
  }

  /**
   * Records a reply the framework got without `callModel` (an adapter that does not wrap
   * the model call). Not needed after `callModel`, which records its reply itself.
   */
  replied(content: readonly ContentBlockParam[]): void {
    this.#modelCalls += 1;
    this.#transcript.reply(content);
    if (this.#finalTurn !== null) this.#finalReply = textOf(content);
    this.#batchOpen = content.some((block) => block.type === 'tool_use');
  }

  /**
   * One tool call through the guards, in the order the framework starts them: each waits
   * for the one before to finish, its execution, retries and waits included (guards read
   * counts), so calls a framework starts together run one after another. `run` executes the tool once and may be
   * called again (automatic retries of a transient failure of a read-only tool).
   */
  toolCall(call: ToolCallInput, run: () => MaybePromise<ToolExecution>): Promise<ToolCallAnswer> {
    this.#watch(call.signal);
    const answer = this.#calls.then(() => this.#toolCall(call, run));
    this.#calls = answer.catch(() => undefined);
    return answer;
  }

  /**
   * How the run ended: a guard's stop, the last turn the budget or time limit gave, or
   * else what the framework says (`ended`: completed with its text, its step limit, a failure).
   */
  outcome(ended: RunOutcome): RunOutcome {
    if (this.#stopped !== null) return this.#stopped;
    if (this.#finalTurn === null || this.#finalReply === null) return ended;
    return this.#finalOutcomeBase();
  }

  #finalOutcomeBase(): RunOutcome {
    const finalText = this.#finalReply ?? '';
    return this.#finalTurn === 'timed_out'
      ? { kind: 'timed_out', limit: 'soft', finalText, elapsedMs: this.#clock.now() }
      : { kind: 'budget_exhausted', finalText, toolCalls: this.#toolCalls };
  }

  async #toolCall(call: ToolCallInput, run: () => MaybePromise<ToolExecution>): Promise<ToolCallAnswer> {
    if (this.#stopped !== null) return { kind: 'stop', outcome: this.#stopped };
    const block: ToolUseBlock = { type: 'tool_use', id: call.id, name: call.name, input: call.input } as ToolUseBlock;
    // A reply the adapter did not record: the call joins the transcript so repeat checks see it.
    if (!this.#transcript.holdsCall(call.id)) this.replied([block]);
    const ctx = this.#context();
    this.#toolCalls += 1;
    for (const guard of this.#hooks.beforeToolCall) {
      const decision = guard.beforeToolCall(block, ctx);
      if (decision === undefined) continue;
      if (decision.kind === 'stop') {
        this.#stop(decision.outcome);
        return decision;
      }
      this.#result(call.id, decision.content, decision.isError);
      return { kind: 'answer', content: decision.content, isError: decision.isError };
    }
    const traits = this.#traits(call.name);
    const exec: ExecutionContext = { ...ctx, call: block, traits };
    const once = (): MaybePromise<ToolExecution> => {
      const owed = this.#clock.settle(this.#signal);
      return owed === undefined ? this.#execute(call.name, run) : owed.then(() => this.#execute(call.name, run));
    };
    let execute = once;
    for (const guard of this.#hooks.aroundExecution) {
      const inner = execute;
      execute = () => guard.aroundExecution(exec, inner);
    }
    const execution = await execute();
    if (execution.kind === 'ok') {
      this.#result(call.id, execution.content, false);
      return { kind: 'executed', execution, wording: null };
    }
    const describer = this.#hooks.describeError.at(-1);
    const wording = describer === undefined ? null : describer.describeError(execution.error, exec);
    this.#result(call.id, wording ?? execution.error.message, true);
    return { kind: 'executed', execution, wording };
  }

  #execute(tool: string, run: () => MaybePromise<ToolExecution>): MaybePromise<ToolExecution> {
    if (this.#aborted()) return cancelled(tool, this.#signal?.reason);
    this.#toolExecutions += 1;
    try {
      const answer = run();
      return answer instanceof Promise
        ? answer.then(
            (execution) => this.#unlessCancelled(tool, execution),
            (error: unknown) => this.#unlessCancelled(tool, handlerException(tool, error)),
          )
        : this.#unlessCancelled(tool, answer);
    } catch (error) {
      return this.#unlessCancelled(tool, handlerException(tool, error));
    }
  }

  /** A failure once the run is cancelled is the cancellation (never retried), whatever the tool threw. */
  #unlessCancelled(tool: string, execution: ToolExecution): ToolExecution {
    if (execution.kind === 'ok' || !this.#aborted() || execution.error.code === 'cancelled') return execution;
    return { ...execution, error: new ToolError('cancelled', `${tool}: cancelled (${execution.error.message})`) };
  }

  /** The framework's signal of the moment, when the session was not given one. */
  #watch(signal: AbortSignal | undefined): void {
    if (signal === undefined || this.#watched.includes(signal)) return;
    this.#watched.push(signal);
    this.#signal = this.#watched.length === 1 ? signal : AbortSignal.any(this.#watched);
  }

  #aborted(): boolean {
    return this.#signal?.aborted === true;
  }

  #endBatch(): void {
    if (!this.#batchOpen) return;
    this.#batchOpen = false;
    for (const guard of this.#hooks.afterToolBatch) {
      const decision = guard.afterToolBatch(this.#context());
      if (decision === undefined) continue;
      if (decision.kind === 'stop') {
        this.#stop(decision.outcome);
        return;
      }
      this.#say(decision.message);
      if (decision.forceTool !== undefined) this.#forcedTool = decision.forceTool;
      break;
    }
  }

  #stop(outcome: RunOutcome): TurnPlan {
    this.#stopped ??= outcome;
    return (this.#plan = { kind: 'stop', outcome: this.#stopped });
  }

  #say(text: string): void {
    this.#transcript.userText(text);
    this.#words.push(text);
  }

  #result(id: string, content: string, isError: boolean): void {
    this.#transcript.result(
      isError
        ? { type: 'tool_result', tool_use_id: id, content, is_error: true }
        : { type: 'tool_result', tool_use_id: id, content },
    );
  }

  #traits(name: string): ToolTraits {
    if (this.#guardToolNames.has(name)) return GUARD_TOOL;
    return this.#options.toolTraits?.(name) ?? UNKNOWN_TOOL;
  }

  #context(): LoopContext {
    return {
      clock: this.#clock,
      emit: (event) => this.#options.onEvent?.(event),
      toolCalls: this.#toolCalls,
      toolExecutions: this.#toolExecutions,
      toolTraits: (name) => this.#traits(name),
      iteration: this.#modelCalls,
      messages: this.#transcript.messages,
    };
  }

  /** The request as guards see it: the transcript, and the tools the guards offer (the framework's own are its business). */
  #request(): ModelRequest {
    const request: ModelRequest = {
      model: this.#options.modelId ?? DEFAULT_MODEL_ID,
      max_tokens: this.#options.maxTokens ?? 1024,
      messages: this.#transcript.messages,
      tools: this.guards.flatMap((guard) => guard.tools ?? []) as Tool[],
    };
    if (this.#options.system !== undefined) request.system = this.#options.system;
    return request;
  }
}

/**
 * A guard session for one run of a framework's agent.
 *
 * @example
 * const session = createGuardSession({ guards: { toolBudget: { maxToolCalls: 10 }, repeatFingerprint: true } });
 */
export function createGuardSession(options: GuardSessionOptions): GuardSession {
  return new GuardSession(options);
}

/** A reply as guards read it; the fields a framework's reply has no word for are neutral. */
function asMessage(reply: ReadReply, model: string): Message {
  return {
    id: reply.id ?? 'msg_framework',
    type: 'message',
    role: 'assistant',
    model: reply.model ?? model,
    stop_reason: reply.stop_reason ?? null,
    stop_sequence: null,
    usage: reply.usage ?? ({ input_tokens: 0, output_tokens: 0 } as Message['usage']),
    ...reply,
  } as Message;
}

function cancelled(tool: string, why: unknown): ToolExecution {
  const reason = why instanceof Error ? why.message : String(why);
  return {
    kind: 'error',
    error: new ToolError('cancelled', `${tool}: not run, cancelled (${reason})`),
    latencyMs: 0,
    fault: null,
  };
}

function textOf(content: readonly ContentBlockParam[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
