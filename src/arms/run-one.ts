import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { VirtualClock } from '../clock/virtual-clock.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import { BudgetedAgentLoop } from '../loop/budgeted-agent-loop.js';
import type { RunDurability } from '../loop/durability.js';
import type { AgentEvent } from '../loop/events.js';
import type { RunResult } from '../loop/outcome.js';
import type { StreamKey } from '../random/streams.js';
import { judge, type Verdict } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { createWorld, type World } from '../tools/world.js';
import { buildGuards, type Arm } from './arms.js';
import { failureField } from '../run/failure-reason.js';
import {
  emptyFaultCounts,
  isCountedEvent,
  recordedModelFaults,
  zeroEventCounts,
  type RunRecord,
} from '../run/run-record.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import { RefetchCounter } from '../run/refetch-counter.js';
import { createScenarioToolHost, type ScenarioToolHost } from '../run/scenario-tool-host.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { LiveToolReport } from '../live/live-tool-host.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';

/** The default source, made once: it holds nothing per run. */
const IN_PROCESS = inProcessModel();

export interface RunSpec {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  readonly arm: Arm;
  readonly seed: number;
  /** Where replies come from. @default inProcessModel() */
  readonly model?: ModelSource;
  /** Receives every event of the run (replay uses it for the timeline). */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Checkpoints and the idempotency envelope for this run; none by default. */
  readonly durability?: RunDurability;
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

/** One cell of the matrix: a scenario, an arm and a seed, run and judged on its world. */
export async function runOne(spec: RunSpec): Promise<RunOutput> {
  const { scenario, arm, seed, sweepSeed } = spec;
  if (arm.peer !== undefined || arm.agent !== undefined) {
    // Loaded on demand: sweeps without agent arms never load an agent or its framework.
    const { runAgentArm } = await import('./agent-arm-run.js');
    const output = await runAgentArm({
      sweepSeed,
      scenario,
      arm,
      seed,
      ...(spec.model === undefined ? {} : { model: spec.model }),
      ...(spec.onEvent === undefined ? {} : { onEvent: spec.onEvent }),
    });
    withMember(output.record, spec.member);
    return output;
  }
  const key: StreamKey = { sweepSeed, scenario: scenario.id, runSeed: seed };
  const source = spec.model ?? IN_PROCESS;
  const live = source.live === undefined ? undefined : await source.live.run(scenario, arm.name, seed);
  const world = createWorld(scenario.world);
  const host: ScenarioToolHost = live?.tools ?? createScenarioToolHost(scenario, world, key);
  const tools = spec.onExecution === undefined ? host : observed(host, spec.onExecution);
  const clock = live?.clock ?? new VirtualClock();
  const modelFaults = new ModelFaultInjector(scenario.modelFaults, key, clock);
  const made = live?.model ?? source.clientFor(scenario, key, modelFaults);
  // Awaited only when it is a promise: the in-process run, a sweep's usual one, does not wait a turn.
  const model = made instanceof Promise ? await made : made;
  const { modelId } = source;
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

/** The host, with every execution shown to `see` as it comes back. */
function observed(host: ScenarioToolHost, see: (tool: string, execution: ToolExecution) => void): ScenarioToolHost {
  return {
    definitions: host.definitions,
    faults: host.faults,
    traits: (name) => host.traits(name),
    execute(name, input) {
      const execution = host.execute(name, input);
      if (execution instanceof Promise)
        return execution.then((done) => {
          see(name, done);
          return done;
        });
      see(name, execution);
      return execution;
    },
  };
}
