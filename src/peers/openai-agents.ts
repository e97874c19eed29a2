import { Agent, MaxTurnsExceededError, Runner, tool, type AgentInputItem } from '@openai/agents';
import { OpenAIChatCompletionsModel } from '@openai/agents-openai';
import OpenAI from 'openai';
import type { RunOutcome } from '../loop/outcome.js';
import { errorReason, textOnlyHistory, type PeerAdapter } from './peer-adapter.js';
import type { PeerSetting } from './peer-setting.js';

type Setting = Extract<PeerSetting, { peer: 'openai-agents' }>;

/**
 * The OpenAI Agents SDK's loop: an `Agent` with the scenario's tools on an
 * `OpenAIChatCompletionsModel`, run by a `Runner` with `maxTurns`, over the simulated
 * model's OpenAI-compatible edge (an `OpenAI` client with the edge as its fetch). A tool
 * that throws is answered with the SDK's default error text; the loop ends at a final
 * output or with MaxTurnsExceededError. Tracing is off for the runner (it would export
 * over the network); nothing global is set.
 */
export const openaiAgents: PeerAdapter<Setting> = {
  async run(setting, { scenario, tools, meter, modelId, chatFetch, openaiBaseURL }): Promise<RunOutcome> {
    const history = textOnlyHistory(scenario);
    if (history === null)
      return {
        kind: 'failed',
        reason: 'openai-agents: the adapter replays only text histories; this scenario has tool blocks in its history',
      };
    const client = new OpenAI({
      apiKey: 'sk-simulated',
      baseURL: openaiBaseURL,
      fetch: chatFetch,
      maxRetries: setting.clientMaxRetries,
    });
    const agentTools = tools.definitions.map((definition) =>
      tool({
        name: definition.name,
        description: definition.description ?? definition.name,
        parameters: definition.input_schema as never,
        strict: false,
        execute: async (input: unknown) => meter.runTool(definition.name, input),
      }),
    );
    const agent = new Agent({
      name: 'spiralbench',
      instructions: scenario.system,
      model: new OpenAIChatCompletionsModel(client, modelId),
      tools: agentTools,
    });
    const input: AgentInputItem[] = [
      ...history.map(
        (turn): AgentInputItem =>
          turn.role === 'assistant'
            ? { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }
            : { role: 'user', content: turn.text },
      ),
      { role: 'user', content: scenario.prompt },
    ];
    const runner = new Runner({ tracingDisabled: true });
    try {
      const result = await runner.run(agent, input, { maxTurns: setting.maxTurns });
      return { kind: 'completed', finalText: String(result.finalOutput ?? '') };
    } catch (error) {
      if (error instanceof MaxTurnsExceededError)
        return { kind: 'max_iterations', iterations: meter.counts.modelCalls };
      return { kind: 'failed', reason: errorReason('openai-agents', error) };
    }
  },
};
