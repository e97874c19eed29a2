import type { AgentInputItem } from '@openai/agents';
import { z } from 'zod';
import { defineAgent } from '../agents/define-agent.js';
import { errorReason } from './error-reason.js';
import { textOnlyHistory } from './text-history.js';

/** The Agents SDK's settings: its turn limit, and the OpenAI client's retries (0: see docs/peers.md). */
export const openaiAgentsSettings = z.object({
  /** `run(agent, input, { maxTurns })`. */
  maxTurns: z.number().int().positive().default(10),
  /** The OpenAI client's `maxRetries`. */
  clientMaxRetries: z.number().int().nonnegative().default(0),
});

/**
 * The OpenAI Agents SDK's loop: an `Agent` with the scenario's tools on an
 * `OpenAIChatCompletionsModel`, run by a `Runner` with `maxTurns`, over the run's
 * OpenAI-compatible edge (an `OpenAI` client with the run's fetch). A tool that throws is
 * answered with the SDK's default error text; the loop ends at a final output or with
 * MaxTurnsExceededError. Tracing is off for the runner (it would export over the
 * network); nothing global is set.
 */
export default defineAgent({
  name: 'openai-agents',
  api: 'openai-chat',
  settings: openaiAgentsSettings,
  async run({ settings, tools, fetch, baseURL, apiKey, modelId, system, prompt, history }) {
    const turns = textOnlyHistory(history);
    if (turns === null)
      return {
        outcome: 'failed',
        reason: 'openai-agents: the adapter replays only text histories; this scenario has tool blocks in its history',
      };
    const [{ Agent, MaxTurnsExceededError, Runner, tool }, { OpenAIChatCompletionsModel }, { default: OpenAI }] =
      await Promise.all([import('@openai/agents'), import('@openai/agents-openai'), import('openai')]);
    const client = new OpenAI({ apiKey, baseURL: baseURL.openai, fetch, maxRetries: settings.clientMaxRetries });
    const agentTools = tools.anthropic.map((definition) =>
      tool({
        name: definition.name,
        description: definition.description ?? definition.name,
        parameters: definition.input_schema as never,
        strict: false,
        execute: (input: unknown) => tools.call(definition.name, input),
      }),
    );
    const agent = new Agent({
      name: 'spiralbench',
      instructions: system,
      model: new OpenAIChatCompletionsModel(client, modelId),
      tools: agentTools,
    });
    const input: AgentInputItem[] = [
      ...turns.map(
        (turn): AgentInputItem =>
          turn.role === 'assistant'
            ? { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }
            : { role: 'user', content: turn.text },
      ),
      { role: 'user', content: prompt },
    ];
    const runner = new Runner({ tracingDisabled: true });
    try {
      const result = await runner.run(agent, input, { maxTurns: settings.maxTurns });
      return { outcome: 'completed', finalText: String(result.finalOutput ?? '') };
    } catch (error) {
      if (error instanceof MaxTurnsExceededError) return { outcome: 'max_iterations' };
      return { outcome: 'failed', reason: errorReason('openai-agents', error), error };
    }
  },
});
