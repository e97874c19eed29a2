import type { LanguageModelV3 } from '../ai-sdk/ai-sdk-types.js';
import type { ModelMessage, ToolSet } from 'ai';
import { z } from 'zod';
import type { AgentContext } from '../agents/agent-context.js';
import { type AgentReturn, agentResultOf } from '../agents/agent-result.js';
import { defineAgent } from '../agents/define-agent.js';
import { errorReason } from './error-reason.js';
import { textOnlyHistory } from './text-history.js';

/** generateText's settings: its step limit, and its retries (0: see docs/peers.md). */
export const vercelAiSettings = z.object({
  /** `stopWhen: stepCountIs(n)` of `generateText` (model calls). */
  maxSteps: z.number().int().positive().default(25),
  /** `generateText`'s `maxRetries`. */
  maxRetries: z.number().int().nonnegative().default(0),
  /** Our safeguards as AI SDK middleware (`spiralbench/ai-sdk`): a preset; absent, the bare framework. */
  guards: z.enum(['article', 'all']).optional(),
});

/**
 * The Vercel AI SDK's loop: `generateText` with the scenario's tools and `stopWhen:
 * stepCountIs(n)`, over `@ai-sdk/anthropic` (the Messages API). Each step is one model
 * call; the tool calls of a step run together and a thrown error goes back to the model
 * as an error tool result; the loop ends at a step without tool calls or at the limit.
 */
export default defineAgent({
  name: 'vercel-ai',
  settings: vercelAiSettings,
  async run(context) {
    const { settings, tools, fetch, baseURL, apiKey, modelId, maxTokens, system, prompt, history } = context;
    const turns = textOnlyHistory(history);
    if (turns === null)
      return {
        outcome: 'failed',
        reason: 'vercel-ai: the adapter replays only text histories; this scenario has tool blocks in its history',
      };
    const [{ createAnthropic }, { generateText, jsonSchema, stepCountIs, tool }] = await Promise.all([
      import('@ai-sdk/anthropic'),
      import('ai'),
    ]);
    const provider = createAnthropic({
      apiKey,
      baseURL: `${baseURL.anthropic}/v1`,
      fetch,
    });
    const toolSet: ToolSet = {};
    for (const definition of tools.anthropic) {
      toolSet[definition.name] = tool({
        ...(definition.description === undefined ? {} : { description: definition.description }),
        inputSchema: jsonSchema(definition.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: (input: unknown) => tools.call(definition.name, input),
      });
    }
    const messages: ModelMessage[] = [
      ...turns.map((turn) => ({ role: turn.role, content: turn.text }) as ModelMessage),
      { role: 'user', content: prompt },
    ];
    if (settings.guards !== undefined)
      return guardedRun(context, { provider, toolSet, messages, generateText, stepCountIs });
    try {
      const result = await generateText({
        model: provider(modelId),
        system,
        messages,
        tools: toolSet,
        maxOutputTokens: maxTokens,
        maxRetries: settings.maxRetries,
        stopWhen: stepCountIs(settings.maxSteps),
      });
      if (result.finishReason === 'tool-calls') return { outcome: 'max_iterations', iterations: result.steps.length };
      return { outcome: 'completed', finalText: result.text };
    } catch (error) {
      return { outcome: 'failed', reason: errorReason('generateText', error), error };
    }
  },
});

/**
 * The same `generateText` agent with our safeguards at its extension points
 * (`spiralbench/ai-sdk`): waits charged to the run's clock, guard events to its record.
 */
async function guardedRun(
  context: AgentContext<z.output<typeof vercelAiSettings>>,
  parts: {
    readonly provider: (id: string) => LanguageModelV3;
    readonly toolSet: ToolSet;
    readonly messages: ModelMessage[];
    readonly generateText: typeof import('ai').generateText;
    readonly stepCountIs: typeof import('ai').stepCountIs;
  },
): Promise<AgentReturn> {
  const { settings, tools, modelId, maxTokens, system } = context;
  const { aiSdkGuards } = await import('../ai-sdk/ai-sdk-guards.js');
  const guards = aiSdkGuards({
    guards: settings.guards ?? 'article',
    model: parts.provider(modelId),
    fallback: parts.provider,
    tools: parts.toolSet,
    toolTraits: tools.traits,
    system,
    maxTokens,
    ...context.guardRun,
    clock: { now: context.now, sleep: context.sleep },
    onEvent: context.emit,
  });
  try {
    const result = await parts.generateText({
      model: guards.model,
      system,
      messages: parts.messages,
      tools: guards.tools,
      prepareStep: guards.prepareStep,
      maxOutputTokens: maxTokens,
      maxRetries: settings.maxRetries,
      stopWhen: [parts.stepCountIs(settings.maxSteps), guards.stopWhen],
    });
    return agentResultOf(guards.outcome(result));
  } catch (error) {
    return agentResultOf(guards.failed(error, errorReason('generateText', error)));
  }
}
