import { VirtualClock } from '../clock/virtual-clock.js';
import { MalformedArguments } from '../faults/malformed-arguments.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import type { RunOutcome } from '../loop/outcome.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { contextWindowWith } from '../model/model-table.js';
import { simulatedChatFetch } from '../model/openai/chat-endpoint.js';
import { simulatedFetch } from '../model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../model/simulated/simulated-model.js';
import { PeerMeter } from '../peers/peer-meter.js';
import { errorReason, openingMessages } from '../peers/peer-adapter.js';
import { peerByArm } from '../peers/peer-registry.js';
import type { PeerSetting } from '../peers/peer-setting.js';
import type { StreamKey } from '../random/streams.js';
import { judge } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { createWorld } from '../tools/world.js';
import type { Arm } from './arms.js';
import { emptyFaultCounts, recordedModelFaults, zeroEventCounts, type RunRecord } from './run-record.js';
import type { RunOutput } from './run-one.js';
import { failureField } from './failure-reason.js';
import { createScenarioToolHost } from './scenario-tool-host.js';
import { RefetchCounter } from './refetch-counter.js';
import type { AgentEvent } from '../loop/events.js';

export interface PeerRunSpec {
  readonly sweepSeed: number;
  /** Hears each tool execution as an agent.tool.call / agent.tool.result event. */
  readonly onEvent?: (event: AgentEvent) => void;
  readonly scenario: Scenario;
  readonly arm: Arm & { readonly peer: PeerSetting };
  readonly seed: number;
}

/**
 * One run through a peer framework's loop: the same world, the same seeded flaky tools,
 * the same simulated model behind the same model faults as our loop's runs, reached
 * through the framework's own client over a fetch that never leaves the process. The
 * record is judged on the world exactly as runOne's are. Guard event counts stay zero: a
 * peer has none of our guards. The result's messages are what the run opened with: the
 * framework keeps the rest of its transcript to itself (the tool calls are in the events).
 */
export async function runPeer({ sweepSeed, scenario, arm, seed, onEvent }: PeerRunSpec): Promise<RunOutput> {
  const entry = peerByArm(arm.name) ?? peerByArm(`peer:${arm.peer.peer}`);
  if (entry === undefined) throw new Error(`no peer adapter for arm '${arm.name}'`);
  const key: StreamKey = { sweepSeed, scenario: scenario.id, runSeed: seed };
  const world = createWorld(scenario.world);
  const tools = createScenarioToolHost(scenario, world, key);
  const clock = new VirtualClock();
  const modelFaults = new ModelFaultInjector(scenario.modelFaults, key, clock);
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  const refetches = new RefetchCounter(scenario);
  const meter = new PeerMeter(clock, tools, (event) => {
    refetches.observe(event);
    onEvent?.(event);
  });
  const contextWindow = contextWindowWith(scenario.contextWindow);
  const chat = {
    model,
    faults: modelFaults,
    malformed: new MalformedArguments(scenario.replyFaults.malformed_arguments, key),
  };
  const adapter = await entry.load();
  let outcome: RunOutcome;
  try {
    outcome = await adapter.run(arm.peer, {
      scenario,
      tools,
      meter,
      modelId: DEFAULT_MODEL_ID,
      maxTokens: 1024,
      messagesFetch: meter.fetch(simulatedFetch(model, modelFaults, contextWindow)),
      chatFetch: meter.fetch(simulatedChatFetch(chat)),
      anthropicBaseURL: 'http://simulated.invalid',
      openaiBaseURL: 'http://simulated.invalid/v1',
    });
  } catch (error) {
    outcome = { kind: 'failed', reason: errorReason(entry.name, error), error };
  }
  const verdict = judge(scenario.check, world, false);
  const counts = meter.counts;
  const events = zeroEventCounts();
  const record: RunRecord = {
    sweep_seed: sweepSeed,
    scenario: scenario.id,
    arm: arm.name,
    seed,
    model: entry.name === 'openai-agents' ? 'simulated-openai-sdk' : 'simulated-sdk',
    outcome: outcome.kind,
    verdict: verdict.verdict,
    verdict_reason: verdict.reason,
    tool_calls: counts.toolCalls,
    tool_executions: counts.toolExecutions,
    tool_retries: 0,
    model_calls: counts.modelCalls,
    input_tokens: counts.inputTokens,
    output_tokens: counts.outputTokens,
    virtual_ms: clock.now(),
    duplicate_side_effects: verdict.duplicateSideEffects,
    faults: emptyFaultCounts(tools.faults),
    events,
    escalation: null,
    // Peers run unstreamed: their records carry no stream cuts, like ours.
    model_faults: recordedModelFaults(modelFaults.counts, false),
    refetch_calls: refetches.count,
    journal: null,
    cost_usd: Math.round(counts.costUsd * 1e6) / 1e6,
    ...failureField(outcome),
  };
  const metrics = {
    toolCalls: counts.toolCalls,
    toolExecutions: counts.toolExecutions,
    toolRetries: 0,
    modelCalls: counts.modelCalls,
    inputTokens: counts.inputTokens,
    outputTokens: counts.outputTokens,
    virtualMs: clock.now(),
    modelRetries: 0,
    costUsd: counts.costUsd,
  };
  return { record, result: { outcome, metrics, messages: openingMessages(scenario) }, verdict, world };
}
