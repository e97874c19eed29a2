import { z } from 'zod';
import { defineAgent } from '../agents/define-agent.js';
import { errorReason } from './error-reason.js';

/** The tool runner's settings: its loop limit, and the client's retries (0: see docs/peers.md). */
export const toolRunnerSettings = z.object({
  /** `max_iterations` of `client.beta.messages.toolRunner` (model calls). */
  maxIterations: z.number().int().positive().default(25),
  /** The Anthropic client's `maxRetries`. */
  clientMaxRetries: z.number().int().nonnegative().default(0),
});

/**
 * The Anthropic SDK's own agent loop, `client.beta.messages.toolRunner`: it sends the
 * conversation, runs every tool_use of the reply through the tools' `run` functions
 * (a thrown error becomes an `is_error` result, `Error: <message>`), and stops at a reply
 * without tool calls or at `max_iterations` model calls.
 */
export default defineAgent({
  name: 'anthropic-tool-runner',
  settings: toolRunnerSettings,
  async run({ settings, tools, fetch, baseURL, apiKey, modelId, maxTokens, system, messages }) {
    const [{ default: Anthropic }, { betaTool }] = await Promise.all([
      import('@anthropic-ai/sdk'),
      import('@anthropic-ai/sdk/helpers/beta/json-schema'),
    ]);
    const client = new Anthropic({ apiKey, baseURL: baseURL.anthropic, fetch, maxRetries: settings.clientMaxRetries });
    const runnable = tools.anthropic.map((definition) =>
      betaTool({
        name: definition.name,
        // Undefined stays out of the JSON body, as it does in our loop's requests.
        description: definition.description as string,
        inputSchema: definition.input_schema as Parameters<typeof betaTool>[0]['inputSchema'],
        run: (input: unknown) => tools.call(definition.name, input),
      }),
    );
    try {
      const runner = client.beta.messages.toolRunner({
        model: modelId,
        max_tokens: maxTokens,
        system,
        messages,
        tools: runnable,
        max_iterations: settings.maxIterations,
      });
      const last = await runner.runUntilDone();
      if (last.content.some((block) => block.type === 'tool_use')) return { outcome: 'max_iterations' };
      return {
        outcome: 'completed',
        finalText: last.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
      };
    } catch (error) {
      return { outcome: 'failed', reason: errorReason('toolRunner', error), error };
    }
  },
});
