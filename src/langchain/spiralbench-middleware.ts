import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { z } from 'zod';
import { STUCK_TOOL_NAME } from '../loop/guards/stuck-tool.js';
import type { RunOutcome } from '../loop/outcome.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { createGuardSession, type GuardSession, type GuardSessionOptions } from '../middleware/guard-session.js';
import type { SessionClock } from '../middleware/session-clock.js';
import { toolErrorOf } from '../middleware/tool-error-of.js';
import { toolResultText } from '../middleware/tool-result-text.js';
import { ToolError } from '../tools/tool-error.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { guardTool } from './guard-tools.js';
import { anthropicTranscript, replyBlocks } from './langchain-transcript.js';

/**
 * `spiralbenchMiddleware`'s options: the session's (which guards, the tools' traits, the
 * clock their waits go on, where events go) plus what only LangChain needs.
 */
export interface SpiralbenchMiddlewareOptions extends GuardSessionOptions {
  /**
   * The model recovery falls back to, by id (e.g. `(id) => new ChatAnthropic({ model: id })`).
   * Without it a fallback resends to the agent's own model. @default none
   */
  readonly fallbackModel?: (modelId: string) => unknown;
  /**
   * The time the guards' waits go on. One clock for every invocation of this middleware:
   * its `now()` is their common time and a wait one run owes is paid by whichever run
   * settles next, so pass one only to a middleware built per invocation (as the sweep does).
   * @default a fresh wall clock per invocation
   */
  readonly clock?: SessionClock;
  /** Hears each invocation's session as it starts (to read `session.stopped` after a throw). */
  readonly onSession?: (session: GuardSession) => void;
}

/** Each kind of outcome without its error object (distributive: narrowing on `kind` keeps each kind's fields). */
type WithoutError<Outcome> = Outcome extends unknown ? Omit<Outcome, 'error'> : never;

/** How a run ended, as the agent's final state holds it (`state.spiralbench`): the outcome without the error object. */
export type SpiralbenchOutcome = WithoutError<RunOutcome>;

/** The parts of LangChain's model request the middleware reads and changes. */
interface ModelCall {
  readonly model: unknown;
  readonly messages: BaseMessage[];
  readonly tools: readonly { readonly name?: string }[];
  readonly toolChoice?: unknown;
  readonly systemPrompt?: string;
  readonly state: RunState;
  readonly runtime?: Runtime;
}

/** The parts of LangChain's tool call request the middleware reads. */
interface ToolCallRequest {
  readonly toolCall: { readonly id?: string; readonly name: string; readonly args: unknown };
  readonly state: RunState;
  readonly runtime?: Runtime;
}

/** Which run a state belongs to: a key object of its own, written into the state by beforeAgent. */
interface RunKey {
  readonly id: string;
}

/** The state the middleware reads: the run's key. */
interface RunState {
  readonly _spiralbenchRun?: RunKey;
}

/** The parts of LangGraph's runtime the middleware reads: the thread, when a checkpointer keeps one, and the call's abort signal. */
interface Runtime {
  readonly configurable?: { readonly thread_id?: unknown };
  readonly signal?: AbortSignal;
}

/** One invocation's session and the guards' words, each after the message it follows. */
interface Run {
  readonly session: GuardSession;
  readonly words: Map<string, string[]>;
}

/** The state the middleware adds to the agent's: the run's key, and how the run ended once it has. */
const spiralbenchState = z.object({
  _spiralbenchRun: z.custom<RunKey>().optional(),
  spiralbench: z.custom<SpiralbenchOutcome>().optional(),
});

/** The thread a checkpointer keeps the run on, if any: a run paused there resumes in a later invocation. */
function threadOf(runtime: Runtime | undefined): string | undefined {
  const thread = runtime?.configurable?.thread_id;
  return typeof thread === 'string' || typeof thread === 'number' ? String(thread) : undefined;
}

/** Where a message sits, for the guards' words after it: its id (the reducer gives every state message one). */
function keyOf(message: BaseMessage | undefined, index: number): string {
  return message?.id ?? `#${index}`;
}

/** The request's messages with the guards' words, as one human turn after the message each follows. */
function withWords(messages: readonly BaseMessage[], words: ReadonlyMap<string, readonly string[]>): BaseMessage[] {
  if (words.size === 0) return [...messages];
  const out: BaseMessage[] = [];
  messages.forEach((message, i) => {
    out.push(message);
    const said = words.get(keyOf(message, i));
    if (said !== undefined)
      out.push(new HumanMessage({ content: said.map((text) => ({ type: 'text' as const, text })) }));
  });
  return out;
}

/** What LangChain's ToolNode says for a tool that threw, when no guard words failures. */
function toolNodeWording(thrown: unknown): string {
  return `${String(thrown)}\n Please fix your mistakes.`;
}

/** Errors LangChain handles itself (bad arguments, an interrupt for a human): never a tool failure of ours. */
function frameworkError(thrown: unknown): boolean {
  if (!(thrown instanceof Error)) return false;
  // LangChain marks its own errors with a brand (ToolInvocationError.isInstance reads it), LangGraph by name.
  const brand = (thrown as Error & { readonly '~brand'?: unknown })['~brand'];
  return brand === 'ToolInvocationError' || thrown.name === 'GraphInterrupt' || thrown.name === 'NodeInterrupt';
}

function describe(outcome: RunOutcome): string {
  return 'reason' in outcome ? outcome.reason : outcome.kind;
}

function recorded(outcome: RunOutcome): SpiralbenchOutcome {
  const { error: _, ...rest } = outcome as RunOutcome & { error?: unknown };
  return rest as SpiralbenchOutcome;
}

/**
 * Our safeguards as one LangChain v1 middleware for `createAgent`: the same guard objects
 * our loop consults, hosted by a guard session per invocation.
 * - `beforeAgent` opens the session on the conversation; `afterAgent` writes how the run
 *   ended into `state.spiralbench`.
 * - `wrapModelCall` asks the session for the turn: the guards' words (loop detection's
 *   nudges, the budget's message) join the request as a human turn after the tool results
 *   they answer, in every later request too; `toolChoice` becomes `'none'` for the last
 *   turn or the forced tool's name; guard tools are offered when the guards offer them.
 *   The call goes through LLM-call recovery (retries with backoff, the fallback model).
 *   The last turn's reply ends the run; a stop ends it without a model call.
 * - `wrapToolCall` puts each call to the guards: the budget and repeat fingerprinting
 *   answer it without running it, error classification retries transient failures of
 *   read-only tools and words the failure, and `request_human_help` (a `returnDirect`
 *   tool) ends the run `escalated` with its payload.
 *
 * @example
 * import { createAgent } from 'langchain';
 * import { spiralbenchMiddleware } from 'spiralbench/langchain';
 *
 * const agent = createAgent({
 *   model: new ChatAnthropic({ model: 'claude-sonnet-4-5' }),
 *   tools: [getUser, sendEmail],
 *   middleware: [spiralbenchMiddleware({ guards: 'article', toolTraits: (name) => ({ sideEffecting: name === 'send_email', concurrencySafe: false }) })],
 * });
 * const state = await agent.invoke({ messages: [{ role: 'user', content: 'Email u_42 their invoice.' }] });
 * state.spiralbench; // { kind: 'completed', ... } or { kind: 'escalated', payload: {...} }
 */
export function spiralbenchMiddleware(options: SpiralbenchMiddlewareOptions): AgentMiddleware<typeof spiralbenchState> {
  const { fallbackModel, onSession, ...sessionOptions } = options;
  // By the id of the key object the run's state holds (LangGraph hands the tool node a copy of it).
  // A run is dropped once LangGraph drops its state's key, however the invocation ended
  // (afterAgent, GraphRecursionError, a throw): no run in flight is ever dropped for another.
  const runs = new Map<string, Run>();
  const dropped = new FinalizationRegistry<string>((id) => runs.delete(id));
  // A checkpointed thread's latest run: a resume reads the key back as a copy, found here by its id.
  const threads = new Map<string, { readonly key: RunKey; readonly run: Run }>();
  let opened = 0;
  // Built once to learn which tools the guards may offer: createAgent registers tools up front.
  const offered = createGuardSession(sessionOptions).tools;
  const guardToolNames = new Set(offered.map((tool) => tool.name));
  const tools: StructuredToolInterface[] = offered.map((tool) => guardTool(tool, tool.name === STUCK_TOOL_NAME));

  // A guard's system prompt (the journal's digest) extends the agent's own when the session was not told it.
  const systemWith = (guards: string, agent: string | undefined): string =>
    sessionOptions.system !== undefined || agent === undefined || agent === '' ? guards : `${agent}\n\n${guards}`;
  // The id the guards' requests name; recovery names another only when it falls back.
  const primary = sessionOptions.modelId ?? DEFAULT_MODEL_ID;
  const runOf = (state: RunState, runtime: Runtime | undefined, hook: string): Run => {
    const key = state._spiralbenchRun;
    const found = key === undefined ? undefined : runs.get(key.id);
    if (found !== undefined) return found;
    const thread = threadOf(runtime);
    const paused = thread === undefined ? undefined : threads.get(thread);
    if (key !== undefined && paused !== undefined && paused.key.id === key.id) return paused.run;
    // Never run a hook unguarded: a state without our key is an agent this middleware did not open.
    throw new Error(
      `spiralbench: ${hook} found no guard session for this run (${key === undefined ? 'no run key in the state' : `run ${key.id}`}); was beforeAgent skipped, or the middleware instance changed between an interrupt and its resume?`,
    );
  };

  const config = {
    name: 'SpiralbenchMiddleware',
    stateSchema: spiralbenchState,
    tools,
    beforeAgent(state: { readonly messages: BaseMessage[] }, runtime?: Runtime) {
      const id = `run-${++opened}`;
      const session = createGuardSession(sessionOptions);
      session.open(anthropicTranscript(state.messages));
      runs.set(id, { session, words: new Map() });
      const key: RunKey = { id };
      const run = runs.get(id) as Run;
      dropped.register(key, id);
      const thread = threadOf(runtime);
      if (thread !== undefined) threads.set(thread, { key, run });
      onSession?.(session);
      return { _spiralbenchRun: key };
    },
    afterAgent(state: { readonly messages: BaseMessage[] } & RunState, runtime?: Runtime) {
      const run = runOf(state, runtime, 'afterAgent');
      const thread = threadOf(runtime);
      if (thread !== undefined && threads.get(thread)?.run === run) threads.delete(thread);
      if (state._spiralbenchRun !== undefined) runs.delete(state._spiralbenchRun.id);
      const last = state.messages.at(-1);
      const text = last === undefined ? '' : replyBlocks(last).map((b) => (b.type === 'text' ? b.text : ''));
      const ended: RunOutcome = { kind: 'completed', finalText: Array.isArray(text) ? text.join('') : text };
      return { spiralbench: recorded(run.session.outcome(ended)) };
    },
    async wrapModelCall(request: ModelCall, handler: (request: ModelCall) => Promise<AIMessage>) {
      const run = runOf(request.state, request.runtime, 'wrapModelCall');
      const { session } = run;
      const plan = session.nextTurn();
      // A stop (a guard ended the run at a tool call or here): no model call, a reply without calls ends the graph.
      if (plan.kind === 'stop') return new AIMessage({ content: '' });
      if (plan.append.length > 0) {
        const key = keyOf(request.messages.at(-1), request.messages.length - 1);
        run.words.set(key, [...(run.words.get(key) ?? []), ...plan.append]);
      }
      const offeredNow = new Set(plan.guardTools);
      const call: ModelCall = {
        ...request,
        messages: withWords(request.messages, run.words),
        tools: request.tools.filter((tool) => !guardToolNames.has(tool.name ?? '') || offeredNow.has(tool.name ?? '')),
        ...(plan.toolChoice === 'auto'
          ? {}
          : { toolChoice: plan.toolChoice === 'none' ? 'none' : plan.toolChoice.name }),
        ...(plan.system === undefined ? {} : { systemPrompt: systemWith(plan.system, request.systemPrompt) }),
      };
      let lastThrown: unknown;
      const answer = await session.callModel(
        async (model) => {
          const onModel = model === primary || fallbackModel === undefined ? request.model : fallbackModel(model);
          try {
            return await handler({ ...call, model: onModel });
          } catch (error) {
            lastThrown = error;
            throw error;
          }
        },
        (reply) => ({ content: replyBlocks(reply) }),
        request.runtime?.signal,
      );
      // LangChain's own error, as without the middleware: recovery had nothing to do with it.
      if (answer.kind === 'error') throw answer.error;
      // Recovery gave up (an auth error, retries spent): the run ends with the model's last error.
      if (answer.kind === 'stop')
        throw lastThrown ?? new Error(`spiralbench: ${answer.outcome.kind}: ${describe(answer.outcome)}`);
      // The last turn's reply is the answer: calls it made anyway (tool_choice was none) are not run.
      if (plan.finalTurn && (answer.reply.tool_calls?.length ?? 0) > 0)
        return new AIMessage({ content: answer.reply.content, id: answer.reply.id ?? '' });
      return answer.reply;
    },
    async wrapToolCall(request: ToolCallRequest, handler: (request: ToolCallRequest) => Promise<unknown>) {
      const run = runOf(request.state, request.runtime, 'wrapToolCall');
      const { id = '', name, args } = request.toolCall;
      let message: unknown = null;
      let thrown: unknown = null;
      let langchains: unknown = null;
      const called = { id, name, input: args, signal: request.runtime?.signal };
      const answer = await run.session.toolCall(called, async (): Promise<ToolExecution> => {
        try {
          message = await handler(request);
        } catch (error) {
          thrown = error;
          // LangChain's own (arguments that fail the schema, an interrupt): a permanent failure to the guards, then LangChain's to handle.
          if (frameworkError(error)) langchains = error;
          const failure = langchains === null ? toolErrorOf(error) : new ToolError('invalid_input', String(error));
          return { kind: 'error', error: failure, latencyMs: 0, fault: null };
        }
        const content = toolResultText(ToolMessage.isInstance(message) ? message.content : message);
        return { kind: 'ok', content, latencyMs: 0, fault: null };
      });
      if (langchains !== null) throw langchains;
      if (answer.kind === 'stop')
        return new ToolMessage({
          content:
            answer.outcome.kind === 'escalated' ? 'A person has been asked for help.' : 'Not run: the run has ended.',
          tool_call_id: id,
          name,
          status: answer.outcome.kind === 'escalated' ? 'success' : 'error',
        });
      if (answer.kind === 'answer')
        return new ToolMessage({
          content: answer.content,
          tool_call_id: id,
          name,
          status: answer.isError ? 'error' : 'success',
        });
      if (answer.execution.kind === 'ok') return message;
      return new ToolMessage({
        content: answer.wording ?? toolNodeWording(thrown ?? answer.execution.error),
        tool_call_id: id,
        name,
        status: 'error',
      });
    },
  };
  return createMiddleware(config as unknown as Parameters<typeof createMiddleware>[0]) as AgentMiddleware<
    typeof spiralbenchState
  >;
}
