import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import type { RunOutcome } from '../loop/outcome.js';
import { errorReason, openingMessages, type PeerAdapter } from './peer-adapter.js';
import type { PeerSetting } from './peer-setting.js';
import { contentText } from '../model/content-text.js';

type Setting = Extract<PeerSetting, { peer: 'anthropic-tool-runner' }>;

/**
 * The Anthropic SDK's own agent loop, `client.beta.messages.toolRunner`: it sends the
 * conversation, runs every tool_use of the reply through the tools' `run` functions
 * (a thrown error becomes an `is_error` result, `Error: <message>`), and stops at a reply
 * without tool calls or at `max_iterations` model calls.
 */
export const anthropicToolRunner: PeerAdapter<Setting> = {
  async run(
    setting,
    { scenario, tools, meter, modelId, maxTokens, messagesFetch, anthropicBaseURL },
  ): Promise<RunOutcome> {
    const client = new Anthropic({
      apiKey: 'sk-ant-simulated',
      baseURL: anthropicBaseURL,
      fetch: messagesFetch,
      maxRetries: setting.clientMaxRetries,
    });
    const runnable = tools.definitions.map((definition) =>
      betaTool({
        name: definition.name,
        // Undefined stays out of the JSON body, as it does in our loop's requests.
        description: definition.description as string,
        inputSchema: definition.input_schema as Parameters<typeof betaTool>[0]['inputSchema'],
        run: async (input: unknown) => meter.runTool(definition.name, input),
      }),
    );
    try {
      const runner = client.beta.messages.toolRunner({
        model: modelId,
        max_tokens: maxTokens,
        system: scenario.system,
        messages: openingMessages(scenario),
        tools: runnable,
        max_iterations: setting.maxIterations,
      });
      const last = await runner.runUntilDone();
      if (last.content.some((block) => block.type === 'tool_use'))
        return { kind: 'max_iterations', iterations: meter.counts.modelCalls };
      const finalText = contentText(last.content);
      return { kind: 'completed', finalText };
    } catch (error) {
      return { kind: 'failed', reason: errorReason('toolRunner', error) };
    }
  },
};
