import type { LanguageModelV3 } from './ai-sdk-types.js';
import {
  type GenerateTextResult,
  jsonSchema,
  type ModelMessage,
  type StopCondition,
  type ToolExecutionOptions,
  type ToolSet,
  tool,
  wrapLanguageModel,
} from 'ai';
import {
  createGuardSession,
  type GuardSession,
  type GuardSessionOptions,
  type TurnPlan,
} from '../middleware/guard-session.js';
import { type GuardChoice, SESSION_PRESETS, type SessionPreset } from '../middleware/hosted-guards.js';
import { toolErrorOf } from '../middleware/tool-error-of.js';
import { toolResultText } from '../middleware/tool-result-text.js';
import type { RunOutcome } from '../loop/outcome.js';
import type { MaybePromise } from '../tools/maybe-promise.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ToolError } from '../tools/tool-error.js';
import { readGenerateResult, toAnthropicMessages } from './ai-sdk-messages.js';

/** What `aiSdkGuards` is given: the session's options, the model and the tools of your `generateText` call. */
export interface AiSdkGuardsOptions extends Omit<GuardSessionOptions, 'modelId' | 'toolTraits'> {
  /** The model your agent calls; wrapped so LLM-call recovery can retry it. */
  readonly model: LanguageModelV3;
  /** Your tools, each with its `execute`; wrapped so each call goes through the guards. @default {} */
  readonly tools?: ToolSet;
  /**
   * The `activeTools` of your `generateText` call, if any: `prepareStep` answers with the
   * step's active tools, which replace yours, so it offers these (plus the guards' tools of
   * the step) instead of every tool of `tools`. @default every tool of `tools`
   */
  readonly activeTools?: readonly string[];
  /**
   * The model recovery falls back to, by id (e.g. `(id) => anthropic(id)`); without it,
   * recovery has no fallback model and retries on yours only. @default none
   */
  readonly fallback?: (modelId: string) => LanguageModelV3;
  /**
   * Tools that only read (retried automatically on a transient failure). Every other tool
   * is taken to write, and is never retried blindly. @default []
   */
  readonly readOnlyTools?: readonly string[];
  /** Overrides `readOnlyTools` with each tool's traits. */
  readonly toolTraits?: GuardSessionOptions['toolTraits'];
  /**
   * Runs every tool of `tools` instead of its own `execute`, answering with the execution
   * as a value (a harness's tool host): its text goes to the model as it is, and a
   * failure's error is classified as given. @default each tool's own `execute`
   */
  readonly executeTool?: (name: string, input: unknown) => MaybePromise<ToolExecution>;
}

/** What `prepareStep` returns: a subset of the AI SDK's `PrepareStepResult`. */
export interface StepPlan {
  readonly messages?: ModelMessage[];
  readonly toolChoice?: 'none' | { readonly type: 'tool'; readonly toolName: string };
  readonly activeTools: string[];
  readonly system?: string;
}

/** One tool execution your way: its result, or the error it threw. */
type Executed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly thrown: unknown };

/**
 * Our safeguards for one `generateText` run, at the AI SDK's own extension points: the
 * `model` (a `wrapLanguageModel` middleware whose `wrapGenerate` retries failed calls),
 * the `tools` (each `execute` wrapped: repeats answered, transient failures of read-only
 * tools retried, errors worded by class, the stuck tool ending the run; the guards' own
 * tools added), `prepareStep` (the budget's final turn, loop-detection nudges and the
 * forced stuck call) and `stopWhen` (a guard's decision to end the run). Build one per run:
 * a second `generateText` through the same one is refused at its first step.
 */
export class AiSdkGuards {
  readonly session: GuardSession;
  readonly model: LanguageModelV3;
  readonly tools: ToolSet;
  /** `generateText`'s `prepareStep`: the guards' words, tool choice and tools for the step. */
  readonly prepareStep: (options: { readonly messages: ModelMessage[]; readonly stepNumber: number }) => StepPlan;
  readonly stopWhen: StopCondition<ToolSet>;
  readonly #names: readonly string[];
  /** Guard words inserted for good: after how many of the framework's messages, and the text. */
  readonly #inserts: Array<{ readonly at: number; readonly text: string }> = [];
  #opened = false;

  constructor(options: AiSdkGuardsOptions) {
    const readOnly = new Set(options.readOnlyTools ?? []);
    const { model, fallback, tools = {}, readOnlyTools: _, executeTool, toolTraits, activeTools, ...rest } = options;
    this.session = createGuardSession({
      toolTraits:
        toolTraits ?? ((name) => ({ sideEffecting: !readOnly.has(name), concurrencySafe: readOnly.has(name) })),
      ...rest,
      modelId: model.modelId,
      guards: fallback === undefined ? withoutFallback(rest.guards) : rest.guards,
    });
    this.#names = activeTools ?? Object.keys(tools);
    this.model = this.#wrapModel(model, fallback);
    this.tools = { ...this.#wrapTools(tools, executeTool), ...this.#guardTools() };
    this.prepareStep = ({ messages, stepNumber }) => this.#prepare(messages, stepNumber);
    this.stopWhen = () => this.session.nextTurn().kind === 'stop';
  }

  /**
   * Runs one tool call through the guards: `run` executes it once (and again for a retry)
   * and reports what it came to. Resolves to what `execute` returns; throws what the
   * model should see as the failure.
   */
  async execute(
    call: { readonly id: string; readonly name: string; readonly input: unknown },
    run: () => MaybePromise<ToolExecution>,
    value: () => unknown,
    failure: () => unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const answer = await this.session.toolCall({ ...call, signal }, run);
    switch (answer.kind) {
      case 'executed':
        if (answer.execution.kind === 'ok') return value();
        throw answer.wording === null ? failure() : new Error(answer.wording);
      case 'answer':
        if (answer.isError) throw new Error(answer.content);
        return answer.content;
      case 'stop':
        throw new Error(`Not run: the run has ended (${answer.outcome.kind}).`);
    }
  }

  /**
   * How the run ended, our loop's way: a guard's stop (escalated with its payload, a
   * failed model call), the budget's final turn (`budget_exhausted`), or else what
   * `generateText` says (`completed` with its text, or its step limit).
   */
  outcome(result: Pick<GenerateTextResult<ToolSet, never>, 'finishReason' | 'text' | 'steps'>): RunOutcome {
    return this.session.outcome(
      result.finishReason === 'tool-calls'
        ? { kind: 'max_iterations', iterations: result.steps.length }
        : { kind: 'completed', finalText: result.text },
    );
  }

  /** How a run whose `generateText` threw ended: the guard's stop that threw it, or a failure. */
  failed(error: unknown, reason = error instanceof Error ? error.message : String(error)): RunOutcome {
    return this.session.outcome({ kind: 'failed', reason, error });
  }

  #prepare(messages: ModelMessage[], stepNumber: number): StepPlan {
    // A second run's first step: the guards still hold the first run's counts, words and stop.
    if (this.#opened && stepNumber === 0)
      throw new Error(
        'spiralbench/ai-sdk: one aiSdkGuards per run: this one has already hosted a generateText run; build a new aiSdkGuards(...) for each run',
      );
    if (!this.#opened) {
      this.session.open(toAnthropicMessages(messages));
      this.#opened = true;
    }
    const plan = this.session.nextTurn();
    if (plan.kind === 'stop') throw new GuardStopped(plan.outcome);
    for (const text of plan.append) this.#inserts.push({ at: messages.length, text });
    return {
      ...(this.#inserts.length === 0 ? {} : { messages: this.#withWords(messages) }),
      // `auto` is left unsaid, so an unguarded turn sends what the bare agent sends.
      ...(plan.toolChoice === 'auto' ? {} : { toolChoice: toolChoiceOf(plan.toolChoice) }),
      activeTools: [...this.#names, ...plan.guardTools],
      ...(plan.system === undefined ? {} : { system: plan.system }),
    };
  }

  /** The framework's messages with the guards' words where they were said: the AI SDK rebuilds each step's messages from its own history. */
  #withWords(messages: readonly ModelMessage[]): ModelMessage[] {
    const out: ModelMessage[] = [];
    let next = 0;
    for (let i = 0; i <= messages.length; i++) {
      while (next < this.#inserts.length && this.#inserts[next]!.at === i)
        out.push({ role: 'user', content: [{ type: 'text', text: this.#inserts[next++]!.text }] });
      if (i < messages.length) out.push(messages[i]!);
    }
    return out;
  }

  #wrapModel(model: LanguageModelV3, fallback: AiSdkGuardsOptions['fallback']): LanguageModelV3 {
    const session = this.session;
    return wrapLanguageModel({
      model,
      middleware: {
        specificationVersion: 'v3',
        async wrapGenerate({ doGenerate, params }) {
          const called = await session.callModel(
            async (id) =>
              id === model.modelId || fallback === undefined ? doGenerate() : fallback(id).doGenerate(params),
            readGenerateResult,
            params.abortSignal,
          );
          if (called.kind === 'reply') return called.reply;
          if (called.kind === 'error') throw called.error;
          throw new GuardStopped(called.outcome);
        },
        // Unguarded streaming would look guarded: refused, loudly (docs/ai-sdk-middleware.md, "streamText").
        wrapStream() {
          throw new StreamingRefused();
        },
      },
    });
  }

  #wrapTools(tools: ToolSet, executeTool: AiSdkGuardsOptions['executeTool']): ToolSet {
    const wrapped: ToolSet = {};
    for (const [name, original] of Object.entries(tools)) {
      const execute = original.execute;
      if (executeTool !== undefined) {
        wrapped[name] = { ...original, execute: this.#hostExecute(name, executeTool) } as ToolSet[string];
        continue;
      }
      if (execute === undefined) {
        wrapped[name] = original;
        continue;
      }
      wrapped[name] = {
        ...original,
        execute: (input: unknown, options: ToolExecutionOptions) => {
          let last: Executed = { ok: true, value: undefined };
          const run = async (): Promise<ToolExecution> => {
            try {
              const value: unknown = await execute(input as never, options);
              last = { ok: true, value };
              return { kind: 'ok', content: toolResultText(value), latencyMs: 0, fault: null };
            } catch (thrown) {
              last = { ok: false, thrown };
              return { kind: 'error', error: toolErrorOf(thrown, options.abortSignal), latencyMs: 0, fault: null };
            }
          };
          return this.execute(
            { id: options.toolCallId, name, input },
            run,
            () => (last.ok ? last.value : undefined),
            () => (last.ok ? new Error('tool failed') : last.thrown),
            options.abortSignal,
          );
        },
      } as ToolSet[string];
    }
    return wrapped;
  }

  /** A tool run by a host that answers with executions: its text as it is, its failure's message as the error. */
  #hostExecute(name: string, executeTool: NonNullable<AiSdkGuardsOptions['executeTool']>) {
    return (input: unknown, options: ToolExecutionOptions) => {
      let last: ToolExecution | undefined;
      const run = (): MaybePromise<ToolExecution> => {
        const answer = executeTool(name, input);
        return answer instanceof Promise ? answer.then((done) => (last = done)) : (last = answer);
      };
      return this.execute(
        { id: options.toolCallId, name, input },
        run,
        () => (last?.kind === 'ok' ? last.content : undefined),
        () => new Error(last?.kind === 'error' ? last.error.message : 'tool failed'),
        options.abortSignal,
      );
    };
  }

  /** The guards' own tools (request_human_help, ...): the session answers them; nothing runs. */
  #guardTools(): ToolSet {
    const tools: ToolSet = {};
    for (const definition of this.session.tools) {
      const name = definition.name;
      const unanswered = (): ToolExecution => ({
        kind: 'error',
        error: new ToolError('handler_exception', `${name} is answered by its guard`),
        latencyMs: 0,
        fault: null,
      });
      tools[name] = tool({
        ...(definition.description === undefined ? {} : { description: definition.description }),
        inputSchema: jsonSchema(definition.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: (input: unknown, options: ToolExecutionOptions) =>
          this.execute(
            { id: options.toolCallId, name, input },
            unanswered,
            () => undefined,
            () => new Error(`${name} is answered by its guard`),
          ),
      });
    }
    return tools;
  }
}

/** Thrown by `guards.model` on a streaming call: the guards are hosted for `generateText` only. */
export class StreamingRefused extends Error {
  override readonly name = 'StreamingRefused';
  constructor() {
    super(
      'spiralbench/ai-sdk: aiSdkGuards hosts the guards for generateText only; streamText (a streaming model call) is refused rather than run unguarded. See docs/ai-sdk-middleware.md, "streamText".',
    );
  }
}

/** Thrown through `generateText` when a guard ends the run where the AI SDK has no stop (before the first step, or on a model call). */
export class GuardStopped extends Error {
  override readonly name = 'GuardStopped';
  constructor(readonly outcome: RunOutcome) {
    super(`a guard ended the run: ${outcome.kind}`);
  }
}

function toolChoiceOf(choice: Exclude<Extract<TurnPlan, { kind: 'call' }>['toolChoice'], 'auto'>) {
  return choice === 'none' ? ('none' as const) : { type: 'tool' as const, toolName: choice.name };
}

/** Recovery without a fallback model: there is no client for another model id. */
function withoutFallback(guards: GuardSessionOptions['guards']): GuardSessionOptions['guards'] {
  if (Array.isArray(guards)) return guards;
  const choice: GuardChoice =
    typeof guards === 'string'
      ? Object.fromEntries(SESSION_PRESETS[guards as SessionPreset].map((name) => [name, true]))
      : (guards as GuardChoice);
  const given = choice.llmRecovery;
  if (given === undefined) return choice;
  return { ...choice, llmRecovery: { ...(given === true ? {} : given), fallbackModel: null } };
}

/**
 * Our safeguards for one `generateText` run: spread its parts into your call.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { aiSdkGuards } from 'spiralbench/ai-sdk';
 *
 * const guards = aiSdkGuards({ guards: 'article', model: anthropic('claude-sonnet-4-5'), tools, readOnlyTools: ['get_user'] });
 * const result = await generateText({
 *   model: guards.model,
 *   tools: guards.tools,
 *   prepareStep: guards.prepareStep,
 *   stopWhen: [stepCountIs(25), guards.stopWhen],
 *   system,
 *   prompt,
 * });
 * const outcome = guards.outcome(result); // { kind: 'escalated', payload } when it asked for help
 */
export function aiSdkGuards(options: AiSdkGuardsOptions): AiSdkGuards {
  return new AiSdkGuards(options);
}
