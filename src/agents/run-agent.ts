import { VirtualClock } from '../clock/virtual-clock.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import type { AgentEvent } from '../loop/events.js';
import type { RunOutcome } from '../loop/outcome.js';
import { AgentMeter } from './agent-meter.js';
import type { StreamKey } from '../random/streams.js';
import { judge } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { createWorld } from '../tools/world.js';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { failureField } from '../bench/failure-reason.js';
import { RefetchCounter } from '../bench/refetch-counter.js';
import type { RunOutput } from '../bench/run-one.js';
import { emptyFaultCounts, recordedModelFaults, type RunRecord } from '../bench/run-record.js';
import { createScenarioToolHost } from '../bench/scenario-tool-host.js';
import { agentContext } from './agent-context.js';
import { AgentEventTally } from './agent-events.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import { outcomeOf } from './agent-result.js';
import { agentTools } from './agent-tools.js';
import type { AgentDefinition } from './define-agent.js';
import { agentOf } from './agent-arm.js';
import type { Arm } from '../bench/arms.js';
import { peerByArm } from '../peers/peer-registry.js';
import { inProcessModel, type ModelSource } from '../bench/model-source.js';

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
}

/** `max_tokens` of our own loop's requests, offered to agents so like is compared with like. */
const MAX_TOKENS = 1024;

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
  const { sweepSeed, scenario, arm, seed, agent, settings, onEvent } = spec;
  const key: StreamKey = { sweepSeed, scenario: scenario.id, runSeed: seed };
  const world = createWorld(scenario.world);
  const host = createScenarioToolHost(scenario, world, key);
  const clock = new VirtualClock();
  const modelFaults = new ModelFaultInjector(scenario.modelFaults, key, clock);
  const refetches = new RefetchCounter(scenario);
  const meter = new AgentMeter(clock, host, (event) => {
    refetches.observe(event);
    onEvent?.(event);
  });
  const source = spec.model ?? inProcessModel();
  const endpoint = source.agentEndpoint(scenario, key, modelFaults);
  // The sweep's checks refuse such a source before anything runs (checkAgentSweep).
  if (endpoint === undefined) throw new Error(`agent arm '${arm}' cannot run against ${source.name} yet`);
  // Loaded on demand (a dependency, cached after the first run): built-in arms never need it.
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const tally = new AgentEventTally(onEvent);
  let journal: RunJournal | null = null;
  const context = agentContext({
    Anthropic,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    emit: tally.emit,
    guardRun: {
      taskClass: scenario.budgetClass,
      toolBudget: scenario.toolBudget,
      streamKey: key,
      journal: () => (journal ??= new RunJournal()),
    },
    fetch: meter.fetch(endpoint.fetch),
    baseURL: endpoint.baseURL,
    apiKey: agent.api === 'openai-chat' ? 'sk-simulated' : 'sk-ant-simulated',
    modelId: endpoint.modelId,
    maxTokens: MAX_TOKENS,
    tools: agentTools(host, meter),
    system: scenario.system,
    prompt: scenario.prompt,
    history: scenario.history as MessageParam[],
    signal: new AbortController().signal,
    settings: agent.settings.parse(settings ?? {}),
  });
  let outcome: RunOutcome;
  try {
    outcome = outcomeOf(await agent.run(context), meter.counts.modelCalls);
  } catch (error) {
    const scrubbed = endpoint.scrub?.(error) ?? error;
    outcome = { kind: 'failed', reason: errorLine(agent.name ?? 'agent', scrubbed), error: scrubbed };
  }
  outcome = recordable(outcome, agent.name ?? 'agent');
  const verdict = judge(scenario.check, world, outcome.kind === 'escalated');
  const counts = meter.counts;
  const record: RunRecord = {
    sweep_seed: sweepSeed,
    scenario: scenario.id,
    arm,
    seed,
    model: endpoint.label ?? (agent.api === 'openai-chat' ? 'simulated-openai-sdk' : 'simulated-sdk'),
    outcome: outcome.kind,
    verdict: verdict.verdict,
    verdict_reason: verdict.reason,
    tool_calls: counts.toolCalls,
    tool_executions: counts.toolExecutions,
    tool_retries: tally.toolRetries,
    model_calls: counts.modelCalls,
    input_tokens: counts.inputTokens,
    output_tokens: counts.outputTokens,
    virtual_ms: clock.now(),
    duplicate_side_effects: verdict.duplicateSideEffects,
    faults: emptyFaultCounts(host.faults),
    events: tally.events,
    escalation: outcome.kind === 'escalated' ? outcome.payload : null,
    // Agents run unstreamed as far as the record knows: it carries no stream cuts.
    model_faults: recordedModelFaults(modelFaults.counts, false),
    refetch_calls: refetches.count,
    journal: journal === null ? null : (journal as RunJournal).toRecord(),
    cost_usd: Math.round(counts.costUsd * 1e6) / 1e6,
    ...failureField(outcome),
  };
  const metrics = {
    toolCalls: counts.toolCalls,
    toolExecutions: counts.toolExecutions,
    toolRetries: tally.toolRetries,
    modelCalls: counts.modelCalls,
    inputTokens: counts.inputTokens,
    outputTokens: counts.outputTokens,
    virtualMs: clock.now(),
    modelRetries: 0,
    costUsd: counts.costUsd,
  };
  return { record, result: { outcome, metrics, messages: context.messages }, verdict, world };
}

/**
 * The outcome, or a failed one if the agent escalated with a payload no record can hold
 * (a BigInt, a cycle, a function): the payload is written into runs.jsonl, and one run's
 * bad value must fail that run, not the sweep.
 */
function recordable(outcome: RunOutcome, agent: string): RunOutcome {
  if (outcome.kind !== 'escalated') return outcome;
  let problem: unknown;
  try {
    if (JSON.stringify(outcome.payload) !== undefined) return outcome;
    problem = new TypeError(`${typeof outcome.payload} is not a JSON value`);
  } catch (error) {
    problem = error;
  }
  const error = new TypeError(
    `the escalation payload cannot be written to a record: ${problem instanceof Error ? problem.message : String(problem)}`,
  );
  return { kind: 'failed', reason: errorLine(agent, error), error };
}

/** An error that ended an agent's run, on one line, for the outcome's reason. */
function errorLine(agent: string, error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${agent}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}

/** One run of an arm that names an agent: a built-in one (`peer:<name>`) or a user's (`agent:<name>`). */
export async function runAgentArm(spec: {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  readonly arm: Arm;
  readonly seed: number;
  readonly onEvent?: (event: AgentEvent) => void;
  readonly model?: ModelSource;
}): Promise<RunOutput> {
  const { arm } = spec;
  let agent: AgentDefinition;
  let settings: unknown;
  if (arm.peer !== undefined) {
    const entry = peerByArm(arm.name) ?? peerByArm(`peer:${arm.peer.peer}`);
    if (entry === undefined) throw new Error(`no built-in agent for arm '${arm.name}'`);
    agent = entry.agent;
    // Results name the framework beside its settings (`peer`); the agent's schema takes the settings alone.
    const { peer: _, ...own } = arm.peer;
    settings = own;
  } else if (arm.agent !== undefined) {
    agent = await agentOf(arm.agent);
    settings = arm.agent.settings;
  } else throw new Error(`arm '${arm.name}' names no agent`);
  return runAgent({
    sweepSeed: spec.sweepSeed,
    scenario: spec.scenario,
    arm: arm.name,
    seed: spec.seed,
    agent,
    settings,
    ...(spec.onEvent === undefined ? {} : { onEvent: spec.onEvent }),
    ...(spec.model === undefined ? {} : { model: spec.model }),
  });
}
