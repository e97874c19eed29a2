import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { z } from 'zod';
import { STUCK_TOOL_NAME } from '../loop/guards/stuck-tool.js';
import type { RunOutcome } from '../loop/outcome.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { createGuardSession, type GuardSession, type GuardSessionOptions } from '../middleware/guard-session.js';
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
  /** Hears each invocation's session as it starts (to read `session.stopped` after a throw). */
  readonly onSession?: (session: GuardSession) => void;
}

/** How a run ended, as the agent's final state holds it (`state.spiralbench`): the outcome without the error object. */
export type SpiralbenchOutcome = Omit<RunOutcome, 'error'> & { readonly kind: RunOutcome['kind'] };

/** The parts of LangChain's model request the middleware reads and changes. */
interface ModelCall {
  readonly model: unknown;
  readonly messages: BaseMessage[];
  readonly tools: readonly { readonly name?: string }[];
  readonly toolChoice?: unknown;
  readonly systemPrompt?: string;
  readonly state: { readonly _spiralbenchRun?: string };
  readonly runtime?: { readonly signal?: AbortSignal };
}

/** The parts of LangChain's tool call request the middleware reads. */
interface ToolCallRequest {
  readonly toolCall: { readonly id?: string; readonly name: string; readonly args: unknown };
  readonly state: { readonly _spiralbenchRun?: string };
  readonly runtime?: { readonly signal?: AbortSignal };
}

/** One invocation's session and the guards' words, each after the message it follows. */
interface Run {
  readonly session: GuardSession;
  readonly words: Map<string, string[]>;
}

/** Sessions left behind by invocations that threw (afterAgent never ran) are dropped beyond this many. */
const MAX_OPEN_RUNS = 256;

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
export function spiralbenchMiddleware(options: SpiralbenchMiddlewareOptions): AgentMiddleware {
  const { fallbackModel, onSession, ...sessionOptions } = options;
  const runs = new Map<string, Run>();
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
  const runOf = (state: { readonly _spiralbenchRun?: string }): Run | undefined =>
    state._spiralbenchRun === undefined ? undefined : runs.get(state._spiralbenchRun);

  const config = {
    name: 'SpiralbenchMiddleware',
    stateSchema: z.object({
      _spiralbenchRun: z.string().optional(),
      spiralbench: z.unknown().optional(),
    }),
    tools,
    beforeAgent(state: { readonly messages: BaseMessage[] }) {
      const id = `run-${++opened}`;
      const session = createGuardSession(sessionOptions);
      session.open(anthropicTranscript(state.messages));
      runs.set(id, { session, words: new Map() });
      for (const stale of runs.keys()) if (runs.size > MAX_OPEN_RUNS) runs.delete(stale);
      onSession?.(session);
      return { _spiralbenchRun: id };
    },
    afterAgent(state: { readonly messages: BaseMessage[]; readonly _spiralbenchRun?: string }) {
      const run = runOf(state);
      if (run === undefined) return undefined;
      if (state._spiralbenchRun !== undefined) runs.delete(state._spiralbenchRun);
      const last = state.messages.at(-1);
      const text = last === undefined ? '' : replyBlocks(last).map((b) => (b.type === 'text' ? b.text : ''));
      const ended: RunOutcome = { kind: 'completed', finalText: Array.isArray(text) ? text.join('') : text };
      return { spiralbench: recorded(run.session.outcome(ended)) };
    },
    async wrapModelCall(request: ModelCall, handler: (request: ModelCall) => Promise<AIMessage>) {
      const run = runOf(request.state);
      if (run === undefined) return handler(request);
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
      const run = runOf(request.state);
      if (run === undefined) return handler(request);
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
  return createMiddleware(config as unknown as Parameters<typeof createMiddleware>[0]) as AgentMiddleware;
}
