import { ChatAnthropic } from '@langchain/anthropic';
import { tool } from '@langchain/core/tools';
import { AIMessage, type BaseMessageLike } from '@langchain/core/messages';
import {
  createAgent,
  modelCallLimitMiddleware,
  modelRetryMiddleware,
  toolCallLimitMiddleware,
  type AgentMiddleware,
} from 'langchain';
import type { RunOutcome } from '../loop/outcome.js';
import { errorReason, textOnlyHistory, type PeerAdapter } from './peer-adapter.js';
import type { PeerSetting } from './peer-setting.js';

type Setting = Extract<PeerSetting, { peer: 'langchain' }>;

type Limit = (options: { readonly runLimit: number; readonly exitBehavior: 'end' }) => AgentMiddleware;

function middlewareFor(setting: Setting): AgentMiddleware[] {
  const middleware: AgentMiddleware[] = [];
  // Retries without backoff: a backoff here would sleep on the wall clock (docs/peers.md).
  if (setting.modelRetries !== null)
    middleware.push(
      modelRetryMiddleware({
        maxRetries: setting.modelRetries,
        initialDelayMs: 0,
        jitter: false,
        onFailure: 'error',
      }) as AgentMiddleware,
    );
  // Their declared option types do not resolve against this project's zod; the options are the documented ones.
  if (setting.modelCallLimit !== null)
    middleware.push(
      (modelCallLimitMiddleware as unknown as Limit)({ runLimit: setting.modelCallLimit, exitBehavior: 'end' }),
    );
  if (setting.toolCallLimit !== null)
    middleware.push(
      (toolCallLimitMiddleware as unknown as Limit)({ runLimit: setting.toolCallLimit, exitBehavior: 'end' }),
    );
  return middleware;
}

/**
 * LangChain's agent loop: `createAgent` (a LangGraph graph of a model node and a tool
 * node) over `ChatAnthropic`, invoked with the scenario's messages and a
 * `recursionLimit`; the setting's middleware goes in as given. A tool that throws is
 * answered by the ToolNode's default handler (`<error>\n Please fix your mistakes.`). The
 * loop ends at a reply without tool calls, at a call limit, or with GraphRecursionError
 * at the recursion limit.
 */
export const langchain: PeerAdapter<Setting> = {
  async run(
    setting,
    { scenario, tools, meter, modelId, maxTokens, messagesFetch, anthropicBaseURL },
  ): Promise<RunOutcome> {
    const history = textOnlyHistory(scenario);
    if (history === null)
      return {
        kind: 'failed',
        reason: 'langchain: the adapter replays only text histories; this scenario has tool blocks in its history',
      };
    const model = new ChatAnthropic({
      model: modelId,
      apiKey: 'sk-ant-simulated',
      anthropicApiUrl: anthropicBaseURL,
      maxTokens,
      maxRetries: setting.clientMaxRetries,
      clientOptions: { fetch: messagesFetch },
    });
    const langchainTools = tools.definitions.map((definition) =>
      tool(async (input: unknown) => meter.runTool(definition.name, input), {
        name: definition.name,
        description: definition.description ?? definition.name,
        schema: definition.input_schema as Record<string, unknown>,
      }),
    );
    const agent = createAgent({
      model,
      tools: langchainTools,
      systemPrompt: scenario.system,
      middleware: middlewareFor(setting),
    });
    const messages: BaseMessageLike[] = [
      ...history.map((turn) => ({ role: turn.role, content: turn.text })),
      { role: 'user', content: scenario.prompt },
    ];
    try {
      const state = await agent.invoke({ messages }, { recursionLimit: setting.recursionLimit });
      const last = state.messages.at(-1);
      if (last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0)
        return { kind: 'max_iterations', iterations: meter.counts.modelCalls };
      return {
        kind: 'completed',
        finalText: typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? ''),
      };
    } catch (error) {
      // By name: @langchain/langgraph comes with langchain and is not imported on its own.
      if (error instanceof Error && error.name === 'GraphRecursionError')
        return { kind: 'max_iterations', iterations: meter.counts.modelCalls };
      return { kind: 'failed', reason: errorReason('langchain', error) };
    }
  },
};
