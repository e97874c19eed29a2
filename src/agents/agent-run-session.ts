import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { failureField } from '../run/failure-reason.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';
import { RefetchCounter } from '../run/refetch-counter.js';
import type { RunOutput } from '../arms/run-one.js';
import { emptyFaultCounts, recordedModelFaults, type RunRecord } from '../run/run-record.js';
import { createScenarioToolHost, type ScenarioToolHost } from '../run/scenario-tool-host.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import type { AgentEvent } from '../loop/events.js';
import type { RunOutcome } from '../loop/outcome.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import type { StreamKey } from '../random/streams.js';
import { judge } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { createWorld, type World } from '../tools/world.js';
import { AgentEventTally } from './agent-events.js';
import { AgentMeter } from './agent-meter.js';
import { type AgentReturn, outcomeOf } from './agent-result.js';
import type { AgentEndpoint } from '../run/simulated-endpoint.js';

export interface AgentRunSessionSpec {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  /** The arm's name, as the record writes it. */
  readonly arm: string;
  readonly seed: number;
  /** Names the agent in a failed run's reason. */
  readonly agentName: string;
  /** The API the agent calls: labels the record's model when the endpoint does not. */
  readonly api: 'anthropic' | 'openai-chat';
  /** Hears each tool execution as an agent.tool.call / agent.tool.result event. */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Where replies come from. @default inProcessModel() */
  readonly model?: ModelSource;
  /** What the record calls the model, instead of the endpoint's or the API's label (a served run). */
  readonly modelLabel?: string;
}

/** How an agent's run ended, as its caller saw it: what `run` returned, or what it threw. */
export type AgentRunEnding = { readonly returned: AgentReturn } | { readonly thrown: unknown };

/**
 * One agent run opened: the world, the seeded tool host, the model endpoint and the
 * meter, for an agent in this process (`runAgent`) or one reaching them over HTTP
 * (`spiralbench serve`). `finish` judges the world and writes the record, once.
 */
export interface AgentRunSession {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly world: World;
  readonly host: ScenarioToolHost;
  readonly clock: VirtualClock;
  readonly meter: AgentMeter;
  /** The run's random streams, for guards an agent hosts (recovery jitter). */
  readonly key: StreamKey;
  /** Counts the events an agent reports (`AgentContext.emit`) into the record. */
  readonly tally: AgentEventTally;
  /** The run's journal, made when a hosted journal guard first asks for it; its record is kept. */
  journal(): RunJournal;
  /** The run's model, unmetered; `meter.fetch(endpoint.fetch)` is what agents call. */
  readonly endpoint: AgentEndpoint;
  /** `history` then `prompt` as a user turn: what the run opens with. */
  readonly openingMessages: MessageParam[];
  finish(ending: AgentRunEnding): RunOutput;
}

/**
 * Opens one run of an agent: the scenario's world, its seeded flaky tools and its
 * simulated model behind its seeded model faults, as for our own loop's runs. Nothing
 * runs until the agent calls; the meter counts what it does.
 *
 * @example
 * const session = openAgentRun({ sweepSeed: 0, scenario, arm: 'agent:mine', seed: 1, agentName: 'mine', api: 'anthropic' });
 * const { record } = session.finish({ returned: 'done' });
 */
export function openAgentRun(spec: AgentRunSessionSpec): AgentRunSession {
  const { sweepSeed, scenario, arm, seed, agentName, api, onEvent } = spec;
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
  const tally = new AgentEventTally(onEvent);
  let journal: RunJournal | null = null;
  const source = spec.model ?? inProcessModel();
  const endpoint = source.agentEndpoint(scenario, key, modelFaults);
  // The sweep's checks refuse such a source before anything runs (checkAgentSweep).
  if (endpoint === undefined) throw new Error(`agent arm '${arm}' cannot run against ${source.name} yet`);
  const openingMessages: MessageParam[] = [
    ...(scenario.history as MessageParam[]),
    { role: 'user', content: scenario.prompt },
  ];
  let finished = false;
  const finish = (ending: AgentRunEnding): RunOutput => {
    if (finished) throw new Error(`run ${arm}/${seed} is already finished`);
    finished = true;
    let outcome: RunOutcome;
    if ('returned' in ending) outcome = outcomeOf(ending.returned, meter.counts.modelCalls);
    else {
      const scrubbed = endpoint.scrub?.(ending.thrown) ?? ending.thrown;
      outcome = { kind: 'failed', reason: errorLine(agentName, scrubbed), error: scrubbed };
    }
    outcome = recordable(outcome, agentName);
    const verdict = judge(scenario.check, world, outcome.kind === 'escalated');
    const counts = meter.counts;
    const record: RunRecord = {
      sweep_seed: sweepSeed,
      scenario: scenario.id,
      arm,
      seed,
      model: spec.modelLabel ?? endpoint.label ?? (api === 'openai-chat' ? 'simulated-openai-sdk' : 'simulated-sdk'),
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
    return { record, result: { outcome, metrics, messages: openingMessages }, verdict, world };
  };
  return {
    scenario,
    seed,
    world,
    host,
    clock,
    meter,
    key,
    tally,
    journal: () => (journal ??= new RunJournal()),
    endpoint,
    openingMessages,
    finish,
  };
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
