import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage, type ToolSet } from 'ai';
import type { RunOutcome } from '../loop/outcome.js';
import { errorReason, textOnlyHistory, withoutNullCitations, type PeerAdapter } from './peer-adapter.js';
import type { PeerSetting } from './peer-setting.js';

type Setting = Extract<PeerSetting, { peer: 'vercel-ai' }>;

/**
 * The Vercel AI SDK's loop: `generateText` with the scenario's tools and `stopWhen:
 * stepCountIs(n)`, over `@ai-sdk/anthropic` (the Messages API). Each step is one model
 * call; the tool calls of a step run together and a thrown error goes back to the model
 * as an error tool result; the loop ends at a step without tool calls or at the limit.
 */
export const vercelAi: PeerAdapter<Setting> = {
  async run(
    setting,
    { scenario, tools, meter, modelId, maxTokens, messagesFetch, anthropicBaseURL },
  ): Promise<RunOutcome> {
    const history = textOnlyHistory(scenario);
    if (history === null)
      return {
        kind: 'failed',
        reason: 'vercel-ai: the adapter replays only text histories; this scenario has tool blocks in its history',
      };
    const provider = createAnthropic({
      apiKey: 'sk-ant-simulated',
      baseURL: `${anthropicBaseURL}/v1`,
      fetch: withoutNullCitations(messagesFetch),
    });
    const toolSet: ToolSet = {};
    for (const definition of tools.definitions) {
      toolSet[definition.name] = tool({
        ...(definition.description === undefined ? {} : { description: definition.description }),
        inputSchema: jsonSchema(definition.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: async (input: unknown) => meter.runTool(definition.name, input),
      });
    }
    const messages: ModelMessage[] = [
      ...history.map((turn) => ({ role: turn.role, content: turn.text }) as ModelMessage),
      { role: 'user', content: scenario.prompt },
    ];
    try {
      const result = await generateText({
        model: provider(modelId),
        system: scenario.system,
        messages,
        tools: toolSet,
        maxOutputTokens: maxTokens,
        maxRetries: setting.maxRetries,
        stopWhen: stepCountIs(setting.maxSteps),
      });
      if (result.finishReason === 'tool-calls') return { kind: 'max_iterations', iterations: result.steps.length };
      return { kind: 'completed', finalText: result.text };
    } catch (error) {
      return { kind: 'failed', reason: errorReason('generateText', error) };
    }
  },
};
