import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import type { ModelSource } from '../run/model-source.js';
import type { RunOutput } from '../run/run-session.js';
import type { AgentEvent } from '../loop/events.js';
import type { Scenario } from '../scenarios/loader.js';
import { agentContext } from './agent-context.js';
import { type AgentRunEnding, openAgentRun } from './agent-run-session.js';
import { agentTools } from './agent-tools.js';
import { CallLimit } from './call-limit.js';
import type { AgentDefinition } from './define-agent.js';

export interface AgentRunSpec {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  /** The arm's name, as the record writes it. */
  readonly arm: string;
  readonly seed: number;
  readonly agent: AgentDefinition;
  /** The arm's settings; parsed by the agent's schema (strict: an unknown key is an error; defaults filled in). */
  readonly settings: unknown;
  /** Hears each tool execution as an agent.tool.call / agent.tool.result event. */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Where replies come from. @default inProcessModel() (agents reach its HTTP endpoints either way) */
  readonly model?: ModelSource;
  /** The ensemble member whose persona `scenario` carries; the record gets it last. @default none */
  readonly member?: number | undefined;
  /** Record the run's model calls into a cassette folder, or answer them from it. @default neither */
  readonly cassette?: CassetteUse | undefined;
}

/** `max_tokens` of our own loop's requests, offered to agents so like is compared with like. */
export const MAX_TOKENS = 1024;

/**
 * One run of an agent: the scenario's world, its seeded flaky tools and its simulated
 * model behind its seeded model faults, as for our own loop's runs; the agent reaches
 * them only through the context, where the meter counts model calls, tokens, tool calls
 * and virtual time. The record is judged on the world. Guard event counts stay zero (the
 * agent has none of our guards); the result's messages are what the run opened with, as
 * the agent keeps its transcript to itself (the tool calls are in the events).
 *
 * @example
 * const { record } = await runAgent({ sweepSeed: 0, scenario, arm: 'agent:mine', seed: 1, agent: mine, settings: {} });
 */
export async function runAgent(spec: AgentRunSpec): Promise<RunOutput> {
  const { agent, settings } = spec;
  const session = openAgentRun({
    sweepSeed: spec.sweepSeed,
    scenario: spec.scenario,
    arm: spec.arm,
    seed: spec.seed,
    member: spec.member,
    cassette: spec.cassette,
    agentName: agent.name ?? 'agent',
    api: agent.api,
    ...(spec.onEvent === undefined ? {} : { onEvent: spec.onEvent }),
    ...(spec.model === undefined ? {} : { model: spec.model }),
  });
  // The session's scenario: of a dataset, the seed's task.
  const { meter, endpoint, host, clock, scenario } = session;
  // Loaded on demand (a dependency, cached after the first run): built-in arms never need it.
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const limit = new CallLimit();
  const metered = meter.fetch(endpoint.fetch);
  const context = agentContext({
    Anthropic,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    emit: session.report,
    guardRun: {
      taskClass: scenario.budgetClass,
      toolBudget: scenario.toolBudget,
      trigger: scenario.trigger,
      streamKey: session.key,
      journal: session.journal,
    },
    fetch: (input, init) => limit.through('model', () => metered(input, init)),
    baseURL: endpoint.baseURL,
    apiKey: agent.api === 'openai-chat' ? 'sk-simulated' : 'sk-ant-simulated',
    modelId: endpoint.modelId,
    maxTokens: MAX_TOKENS,
    tools: agentTools(host, meter, limit),
    system: scenario.system,
    prompt: scenario.prompt,
    history: scenario.history as MessageParam[],
    signal: limit.signal,
    settings: agent.settings.parse(settings ?? {}),
  });
  let ending: AgentRunEnding;
  try {
    ending = { returned: await Promise.race([agent.run(context), limit.reached]) };
  } catch (error) {
    ending = { thrown: error };
  }
  return session.finish(ending);
}
