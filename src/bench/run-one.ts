import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { VirtualClock } from '../clock/virtual-clock.js';
import { MalformedArguments } from '../faults/malformed-arguments.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import { BudgetedAgentLoop } from '../loop/budgeted-agent-loop.js';
import type { RunDurability } from '../loop/durability.js';
import type { AgentEvent } from '../loop/events.js';
import type { RunResult } from '../loop/outcome.js';
import { FaultyModel } from '../model/faulty-model.js';
import type { ModelClient } from '../model/model-client.js';
import { contextWindowWith } from '../model/model-table.js';
import { simulatedFetch } from '../model/simulated/fetch-endpoint.js';
import { SimulatedChatModel } from '../model/openai/simulated-chat.js';
import { SimulatedModel } from '../model/simulated/simulated-model.js';
import type { StreamKey } from '../random/streams.js';
import { judge, type Verdict } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { createWorld, type World } from '../tools/world.js';
import { buildGuards, type Arm } from './arms.js';
import { failureField } from './failure-reason.js';
import {
  emptyFaultCounts,
  isCountedEvent,
  recordedModelFaults,
  zeroEventCounts,
  type RunRecord,
} from './run-record.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import { RefetchCounter } from './refetch-counter.js';
import { createScenarioToolHost, type ScenarioToolHost } from './scenario-tool-host.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { LiveToolReport } from '../live/live-tool-host.js';
import type { LiveSession } from './live-session.js';

/**
 * Which model serves a run: the simulated model in-process (the fast path), the same
 * model behind the real Anthropic SDK through a custom fetch, or any client (real Claude).
 */
export type ModelChoice =
  | {
      readonly kind: 'simulated';
      /** The model id requests carry (its context window and prices apply); the cost estimate of a real sweep sets it. @default DEFAULT_MODEL_ID */
      readonly modelId?: string;
    }
  | { readonly kind: 'simulated-sdk' }
  | { readonly kind: 'client'; readonly client: ModelClient; readonly modelId: string }
  /** Live mode: tools and the simulated model over real HTTP on loopback, in real time. */
  | { readonly kind: 'live'; readonly session: LiveSession };

export interface RunSpec {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  readonly arm: Arm;
  readonly seed: number;
  readonly model?: ModelChoice;
  /** Receives every event of the run (replay uses it for the timeline). */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Checkpoints and the idempotency envelope for this run; none by default. */
  readonly durability?: RunDurability;
  /** The scenario's file, which a live run's tool worker loads (live runs only). */
  readonly scenarioPath?: string;
  /** Sees every execution the tool host answers, before any guard reads it (live-check compares them). */
  readonly onExecution?: (tool: string, execution: ToolExecution) => void;
  /** Stream every model call (docs/streaming.md); the record's model reads `<model>+stream`. @default false */
  readonly stream?: boolean;
  /** The ensemble member whose persona `scenario` carries; the record gets it last. @default none (no member field) */
  readonly member?: number | undefined;
}

/** The model label of a run or sweep: the client's name, marked when replies were streamed. */
export function modelLabel(name: string, stream: boolean | undefined): string {
  return stream === true ? `${name}+stream` : name;
}

export interface RunOutput {
  readonly record: RunRecord;
  /** A live run's tool logs, server side and client side. */
  readonly live?: LiveToolReport;
  readonly result: RunResult;
  readonly verdict: Verdict;
  readonly world: World;
}

/**
 * The run's model. The simulated model sits behind the scenario's model faults and the
 * API's request checks (its context window among them), in-process or at the HTTP
 * endpoint the real SDK calls; both raise the Anthropic SDK's own errors. A scenario on
 * `api: openai-chat` is served through the OpenAI-compatible edge instead (Chat
 * Completions, arguments as text, some written malformed), in-process or through the real
 * `openai` client. A real model meets real faults only. The client's name says which edge
 * served the run.
 */
export async function modelFor(
  choice: Exclude<ModelChoice, { kind: 'live' }>,
  scenario: Scenario,
  key: StreamKey,
  faults: ModelFaultInjector,
): Promise<ModelClient> {
  const atHand = modelAtHand(choice, scenario, key, faults);
  if (atHand !== null) return atHand;
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  if (scenario.api === 'openai-chat') {
    const chat = { model, faults, malformed: new MalformedArguments(scenario.replyFaults.malformed_arguments, key) };
    // Loaded on demand, like the Anthropic SDK below: in-process sweeps never need it.
    const [{ OpenAICompatibleModelClient }, { simulatedChatFetch }] = await Promise.all([
      import('../model/openai/openai-compatible-client.js'),
      import('../model/openai/chat-endpoint.js'),
    ]);
    return new OpenAICompatibleModelClient({
      apiKey: 'sk-simulated',
      fetch: simulatedChatFetch(chat),
      baseURL: 'http://simulated.invalid/v1',
      name: 'simulated-openai-sdk',
    });
  }
  const contextWindow = contextWindowWith(scenario.contextWindow);
  // Loaded on demand: the SDK costs ~0.3 s of start-up that in-process sweeps never need.
  const { AnthropicModelClient } = await import('../model/anthropic-client.js');
  return new AnthropicModelClient({
    apiKey: 'sk-ant-simulated',
    fetch: simulatedFetch(model, faults, contextWindow),
    baseURL: 'http://simulated.invalid',
    name: 'simulated-sdk',
  });
}

/**
 * The run's model when no module has to be loaded for it (a given client, the simulated
 * model in-process), else null. Synchronous, so the in-process run, a sweep's usual one,
 * does not wait a turn for a model that is already made.
 */
function modelAtHand(
  choice: Exclude<ModelChoice, { kind: 'live' }>,
  scenario: Scenario,
  key: StreamKey,
  faults: ModelFaultInjector,
): ModelClient | null {
  if (choice.kind === 'client') return choice.client;
  if (choice.kind !== 'simulated') return null;
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  if (scenario.api === 'openai-chat')
    return new SimulatedChatModel({
      model,
      faults,
      malformed: new MalformedArguments(scenario.replyFaults.malformed_arguments, key),
    });
  return new FaultyModel(model, faults, { contextWindow: contextWindowWith(scenario.contextWindow) });
}

/** One cell of the matrix: a scenario, an arm and a seed, run and judged on its world. */
export async function runOne(spec: RunSpec): Promise<RunOutput> {
  const { scenario, arm, seed, sweepSeed } = spec;
  if (arm.peer !== undefined || arm.agent !== undefined) {
    // Loaded on demand: sweeps without agent arms never load an agent or its framework.
    const { runAgentArm } = await import('../agents/run-agent.js');
    const output = await runAgentArm({
      sweepSeed,
      scenario,
      arm,
      seed,
      ...(spec.onEvent === undefined ? {} : { onEvent: spec.onEvent }),
    });
    withMember(output.record, spec.member);
    return output;
  }
  const key: StreamKey = { sweepSeed, scenario: scenario.id, runSeed: seed };
  const choice = spec.model ?? { kind: 'simulated' };
  const live = choice.kind === 'live' ? await choice.session.run(scenario, livePath(spec), arm.name, seed) : undefined;
  const world = createWorld(scenario.world);
  const host: ScenarioToolHost = live?.tools ?? createScenarioToolHost(scenario, world, key);
  const tools = spec.onExecution === undefined ? host : observed(host, spec.onExecution);
  const clock = live?.clock ?? new VirtualClock();
  const modelFaults = new ModelFaultInjector(scenario.modelFaults, key, clock);
  const notLive = choice as Exclude<ModelChoice, { kind: 'live' }>;
  const model =
    live?.model ??
    modelAtHand(notLive, scenario, key, modelFaults) ??
    (await modelFor(notLive, scenario, key, modelFaults));
  const modelId = choice.kind === 'simulated-sdk' || choice.kind === 'live' ? undefined : choice.modelId;
  const events = zeroEventCounts();
  const onEvent = spec.onEvent;
  const refetches = new RefetchCounter(scenario);
  const journal = new RunJournal();
  const loop = new BudgetedAgentLoop({
    model,
    ...(modelId === undefined ? {} : { modelId }),
    tools,
    guards: buildGuards(arm, scenario, key, modelId, journal),
    system: scenario.system,
    // As the file gives it: a resumed history may be out of order (the fixup guard's job).
    ...(scenario.history.length > 0 ? { history: scenario.history as MessageParam[] } : {}),
    clock,
    ...(spec.durability === undefined ? {} : { durability: spec.durability }),
    ...(spec.stream === true ? { stream: {} } : {}),
    onEvent(event) {
      if (isCountedEvent(event.type)) events[event.type] += 1;
      refetches.observe(event);
      onEvent?.(event);
    },
  });
  const result = await loop.run(scenario.prompt);
  // A live run's world is the tool server's: that is where its tools wrote.
  const ended = live === undefined ? undefined : await live.finish();
  const finalWorld = ended?.world ?? world;
  const verdict = judge(scenario.check, finalWorld, result.outcome.kind === 'escalated');
  const { metrics, outcome } = result;
  const record: RunRecord = {
    sweep_seed: sweepSeed,
    scenario: scenario.id,
    arm: arm.name,
    seed,
    model: modelLabel(model.name, spec.stream),
    outcome: outcome.kind,
    verdict: verdict.verdict,
    verdict_reason: verdict.reason,
    tool_calls: metrics.toolCalls,
    tool_executions: metrics.toolExecutions,
    tool_retries: metrics.toolRetries,
    model_calls: metrics.modelCalls,
    input_tokens: metrics.inputTokens,
    output_tokens: metrics.outputTokens,
    virtual_ms: metrics.virtualMs,
    duplicate_side_effects: verdict.duplicateSideEffects,
    faults: emptyFaultCounts(tools.faults),
    events,
    escalation: outcome.kind === 'escalated' ? outcome.payload : null,
    model_faults: recordedModelFaults(ended?.modelFaults ?? modelFaults.counts, spec.stream === true),
    refetch_calls: refetches.count,
    journal: arm.guards.some((setting) => setting.guard === 'journal') ? journal.toRecord() : null,
    cost_usd: Math.round(metrics.costUsd * 1e6) / 1e6,
    // Appended only to live records: a virtual record's bytes stay as they were.
    ...(ended === undefined ? {} : { live: ended.record }),
    ...failureField(outcome),
  };
  withMember(record, spec.member);
  return { record, result, verdict, world: finalWorld, ...(ended === undefined ? {} : { live: ended.tools }) };
}

/**
 * The ensemble member, after every other field of a record just made (added to it, not
 * copied into a new one: the record is still the run's own). Only with an ensemble: other
 * records keep their bytes.
 */
function withMember(record: RunRecord, member: number | undefined): void {
  if (member !== undefined) (record as { member?: number }).member = member;
}

function livePath(spec: RunSpec): string {
  if (spec.scenarioPath === undefined)
    throw new Error(`a live run of '${spec.scenario.id}' needs the scenario's file (scenarioPath) for its tool server`);
  return spec.scenarioPath;
}

/** The host, with every execution shown to `see` as it comes back. */
function observed(host: ScenarioToolHost, see: (tool: string, execution: ToolExecution) => void): ScenarioToolHost {
  return {
    definitions: host.definitions,
    faults: host.faults,
    traits: (name) => host.traits(name),
    execute(name, input) {
      const execution = host.execute(name, input);
      see(name, execution);
      return execution;
    },
  };
}
