import type { BaseMessageLike } from '@langchain/core/messages';
import type { AgentMiddleware } from 'langchain';
import { z } from 'zod';
import { defineAgent } from '../agents/define-agent.js';
import type { AgentContext } from '../agents/agent-context.js';
import { type AgentResult, agentResultOf } from '../agents/agent-result.js';
import type { RunOutcome } from '../loop/outcome.js';
import type { GuardSession } from '../middleware/guard-session.js';
import { errorReason } from './error-reason.js';
import { textOnlyHistory } from './text-history.js';

/** A limit, or null for none. */
const limit = z.number().int().positive().nullable().default(null);

/** createAgent's settings: LangGraph's limit, the middleware to add (none by default), the client's retries. */
export const langchainSettings = z.object({
  /** LangGraph's `recursionLimit` (graph super-steps: a model call and a tool batch are one each). */
  recursionLimit: z.number().int().positive().default(25),
  /** `modelCallLimitMiddleware({ runLimit })`, or null for no such middleware. */
  modelCallLimit: limit,
  /** `toolCallLimitMiddleware({ runLimit })` over all tools, or null for no such middleware. */
  toolCallLimit: limit,
  /** `modelRetryMiddleware({ maxRetries })` with no backoff, or null for no such middleware. */
  modelRetries: z.number().int().nonnegative().nullable().default(null),
  /** ChatAnthropic's `maxRetries` (its AsyncCaller). */
  clientMaxRetries: z.number().int().nonnegative().default(0),
  /**
   * Our safeguards as LangChain middleware (`spiralbench/langchain`), by preset: the
   * article's four or every guard LangChain can host. Absent: none (the bare framework).
   */
  guards: z.enum(['article', 'all']).optional(),
});

type Settings = z.output<typeof langchainSettings>;
type Limit = (options: { readonly runLimit: number; readonly exitBehavior: 'end' }) => AgentMiddleware;

async function middlewareFor(settings: Settings): Promise<AgentMiddleware[]> {
  const { modelCallLimitMiddleware, modelRetryMiddleware, toolCallLimitMiddleware } = await import('langchain');
  const middleware: AgentMiddleware[] = [];
  // Retries without backoff: a backoff here would sleep on the wall clock (docs/peers.md).
  if (settings.modelRetries !== null)
    middleware.push(
      modelRetryMiddleware({
        maxRetries: settings.modelRetries,
        initialDelayMs: 0,
        jitter: false,
        onFailure: 'error',
      }) as AgentMiddleware,
    );
  // Their declared option types do not resolve against this project's zod; the options are the documented ones.
  if (settings.modelCallLimit !== null)
    middleware.push(
      (modelCallLimitMiddleware as unknown as Limit)({ runLimit: settings.modelCallLimit, exitBehavior: 'end' }),
    );
  if (settings.toolCallLimit !== null)
    middleware.push(
      (toolCallLimitMiddleware as unknown as Limit)({ runLimit: settings.toolCallLimit, exitBehavior: 'end' }),
    );
  return middleware;
}

/**
 * Our guards of a preset as LangChain middleware for one run, on the run's clock (their
 * waits are charged to it), reporting their events to the record; the session is kept to
 * read how a guard ended the run, even one that ended in a throw.
 */
async function guardMiddleware(
  preset: 'article' | 'all',
  context: AgentContext<Settings>,
  chatModel: (id: string) => unknown,
): Promise<{ readonly middleware: AgentMiddleware; readonly session: () => GuardSession | null }> {
  const { spiralbenchMiddleware } = await import('../langchain/index.js');
  let session: GuardSession | null = null;
  const middleware = spiralbenchMiddleware({
    guards: preset,
    toolTraits: (name) => context.tools.traits(name),
    clock: { now: () => context.now(), sleep: (ms) => context.sleep(ms) },
    onEvent: (event) => context.emit(event),
    modelId: context.modelId,
    ...context.guardRun,
    maxTokens: context.maxTokens,
    system: context.system,
    fallbackModel: chatModel,
    onSession: (opened) => {
      session = opened;
    },
  });
  return { middleware, session: () => session };
}

/** The bare adapter's result as the loop outcome a guard session refines (the iteration count is the meter's). */
function loopOutcome(result: AgentResult): RunOutcome {
  switch (result.outcome) {
    case 'completed':
      return { kind: 'completed', finalText: result.finalText };
    case 'failed':
      return result.error === undefined
        ? { kind: 'failed', reason: result.reason }
        : { kind: 'failed', reason: result.reason, error: result.error };
    default:
      return { kind: 'max_iterations', iterations: 0 };
  }
}

/**
 * LangChain's agent loop: `createAgent` (a LangGraph graph of a model node and a tool
 * node) over `ChatAnthropic`, invoked with the scenario's messages and a
 * `recursionLimit`; the settings' middleware goes in as given. A tool that throws is
 * answered by the ToolNode's default handler (`<error>\n Please fix your mistakes.`). The
 * loop ends at a reply without tool calls, at a call limit, or with GraphRecursionError
 * at the recursion limit.
 */
export default defineAgent({
  name: 'langchain',
  settings: langchainSettings,
  async run(context) {
    const { settings, tools, fetch, baseURL, apiKey, modelId, maxTokens, system, prompt, history } = context;
    const turns = textOnlyHistory(history);
    if (turns === null)
      return {
        outcome: 'failed',
        reason: 'langchain: the adapter replays only text histories; this scenario has tool blocks in its history',
      };
    const [{ ChatAnthropic }, { tool }, { AIMessage }, { createAgent }] = await Promise.all([
      import('@langchain/anthropic'),
      import('@langchain/core/tools'),
      import('@langchain/core/messages'),
      import('langchain'),
    ]);
    const chatModel = (id: string) =>
      new ChatAnthropic({
        model: id,
        apiKey,
        anthropicApiUrl: baseURL.anthropic,
        maxTokens,
        maxRetries: settings.clientMaxRetries,
        clientOptions: { fetch },
      });
    const model = chatModel(modelId);
    const langchainTools = tools.anthropic.map((definition) =>
      tool((input: unknown) => tools.call(definition.name, input), {
        name: definition.name,
        description: definition.description ?? definition.name,
        schema: definition.input_schema as Record<string, unknown>,
      }),
    );
    const guarded = settings.guards === undefined ? null : await guardMiddleware(settings.guards, context, chatModel);
    const agent = createAgent({
      model,
      tools: langchainTools,
      systemPrompt: system,
      middleware: [...(await middlewareFor(settings)), ...(guarded === null ? [] : [guarded.middleware])],
    });
    const messages: BaseMessageLike[] = [
      ...turns.map((turn) => ({ role: turn.role, content: turn.text })),
      { role: 'user', content: prompt },
    ];
    const bare = await invoke(agent, messages, settings.recursionLimit, AIMessage);
    const session = guarded?.session() ?? null;
    if (session === null) return bare;
    // How a guard ended the run (escalated, budget_exhausted, ...), else the framework's own ending.
    const ended = loopOutcome(bare);
    const outcome = session.outcome(ended);
    return outcome === ended ? bare : agentResultOf(outcome);
  },
});

/** One invocation of the agent, and how LangChain's loop ended it. */
async function invoke(
  agent: {
    invoke(
      input: { messages: BaseMessageLike[] },
      config: { recursionLimit: number },
    ): Promise<{ messages: unknown[] }>;
  },
  messages: BaseMessageLike[],
  recursionLimit: number,
  AIMessage: typeof import('@langchain/core/messages').AIMessage,
): Promise<AgentResult> {
  try {
    const state = await agent.invoke({ messages }, { recursionLimit });
    const last = state.messages.at(-1) as { content?: unknown } | undefined;
    if (last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0) return { outcome: 'max_iterations' };
    return {
      outcome: 'completed',
      finalText: typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? ''),
    };
  } catch (error) {
    // By name: @langchain/langgraph comes with langchain and is not imported on its own.
    if (error instanceof Error && error.name === 'GraphRecursionError') return { outcome: 'max_iterations' };
    return { outcome: 'failed', reason: errorReason('langchain', error), error };
  }
}
