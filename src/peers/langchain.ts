import type { BaseMessageLike } from '@langchain/core/messages';
import type { AgentMiddleware } from 'langchain';
import { z } from 'zod';
import { defineAgent } from '../agents/define-agent.js';
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
  async run({ settings, tools, fetch, baseURL, apiKey, modelId, maxTokens, system, prompt, history }) {
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
    const model = new ChatAnthropic({
      model: modelId,
      apiKey,
      anthropicApiUrl: baseURL.anthropic,
      maxTokens,
      maxRetries: settings.clientMaxRetries,
      clientOptions: { fetch },
    });
    const langchainTools = tools.anthropic.map((definition) =>
      tool((input: unknown) => tools.call(definition.name, input), {
        name: definition.name,
        description: definition.description ?? definition.name,
        schema: definition.input_schema as Record<string, unknown>,
      }),
    );
    const agent = createAgent({
      model,
      tools: langchainTools,
      systemPrompt: system,
      middleware: await middlewareFor(settings),
    });
    const messages: BaseMessageLike[] = [
      ...turns.map((turn) => ({ role: turn.role, content: turn.text })),
      { role: 'user', content: prompt },
    ];
    try {
      const state = await agent.invoke({ messages }, { recursionLimit: settings.recursionLimit });
      const last = state.messages.at(-1);
      if (last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0) return { outcome: 'max_iterations' };
      return {
        outcome: 'completed',
        finalText: typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? ''),
      };
    } catch (error) {
      // By name: @langchain/langgraph comes with langchain and is not imported on its own.
      if (error instanceof Error && error.name === 'GraphRecursionError') return { outcome: 'max_iterations' };
      return { outcome: 'failed', reason: errorReason('langchain', error) };
    }
  },
});
