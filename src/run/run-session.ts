import { VirtualClock } from '../clock/virtual-clock.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import type { AgentEvent } from '../loop/events.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import type { RunResult } from '../loop/outcome.js';
import type { StreamKey } from '../random/streams.js';
import { judge, type Verdict } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import { createWorld, type World } from '../tools/world.js';
import { EventTally } from './event-tally.js';
import { failureField } from './failure-reason.js';
import type { LiveRun, LiveRunEnd } from './live-session.js';
import { RefetchCounter } from './refetch-counter.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { recordedModelFaults } from './record-counts.js';
import { createScenarioToolHost, type ScenarioToolHost } from './scenario-tool-host.js';

export interface RunSessionSpec {
  readonly sweepSeed: number;
  /** The scenario; of a dataset, the session plays the seed's task (`scenarioForSeed`). */
  readonly scenario: Scenario;
  /** The arm's name, as the record writes it. */
  readonly arm: string;
  readonly seed: number;
  /** The ensemble member whose persona `scenario` carries; the record gets it last. @default none (no member field) */
  readonly member?: number | undefined;
  /** A live run's tools and clock, in place of the seeded ones (docs/live.md). */
  readonly live?: LiveRun | undefined;
  /** Receives every event the run hears or reports. */
  readonly onEvent?: ((event: AgentEvent) => void) | undefined;
}

/** How a driver saw its run end: what the record says about the run beyond the world. */
export interface RunEnding {
  /** The run's outcome, metrics and transcript (an agent's transcript is what the run opened with). */
  readonly result: RunResult;
  /** What the record calls the model. */
  readonly model: string;
  /** Whether model calls were streamed: only then does the record count stream cuts. */
  readonly stream: boolean;
  /** Whether the record keeps the run's journal (a journal guard kept one). */
  readonly journal: boolean;
  /** A live run's end (`LiveRun.finish`): its world is judged instead of the session's. */
  readonly live?: LiveRunEnd | undefined;
}

/** A run judged: its record, and what replay, checks and serve read beside it. */
export interface RunOutput {
  readonly record: RunRecord;
  /** A live run's tool logs, server side and client side. */
  readonly live?: LiveRunEnd['tools'];
  readonly result: RunResult;
  readonly verdict: Verdict;
  readonly world: World;
}

/**
 * One run's room: the scenario's world, its seeded tools, its clock, its seeded model
 * faults, its event counts and journal. Drivers (our own loop, an agent in this process,
 * an agent over HTTP, live mode) run in it; `finish` is the one place a run is judged
 * on its world and its record written.
 */
export interface RunSession {
  readonly scenario: Scenario;
  readonly seed: number;
  /** The run's random streams. */
  readonly key: StreamKey;
  /** The world the seeded tools write to; a live run's tools write to the tool server's, judged at `finish`. */
  readonly world: World;
  readonly host: ScenarioToolHost;
  readonly clock: VirtualClock;
  readonly modelFaults: ModelFaultInjector;
  /** A live run's model and servers (docs/live.md); its driver ends it before `finish`. */
  readonly live: LiveRun | undefined;
  /** Counts an event the harness saw (a loop's, a metered tool call's), watches it for refetches, passes it on. */
  readonly hear: (event: AgentEvent) => void;
  /** Counts an event an agent reports about itself (`AgentContext.emit`) and passes it on. */
  readonly report: (event: AgentEvent) => void;
  /** Tool retries among the events counted: an agent's `tool_retries` (a metered tool call is never one). */
  toolRetries(): number;
  /** The run's journal, made when first asked for. */
  journal(): RunJournal;
  /** Whether anything asked for the journal. */
  hasJournal(): boolean;
  /** Judges the world and writes the record, once. */
  finish(ending: RunEnding): RunOutput;
}

/**
 * Opens one run: nothing runs until a driver calls the model or a tool.
 *
 * @example
 * const session = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 });
 */
export function openRun(spec: RunSessionSpec): RunSession {
  const { sweepSeed, seed, live, onEvent } = spec;
  // A dataset scenario's run plays its seed's task; drivers read it from the session.
  const scenario = scenarioForSeed(spec.scenario, seed);
  const key: StreamKey = { sweepSeed, scenario: scenario.id, runSeed: seed };
  const world = createWorld(scenario.world);
  const host: ScenarioToolHost = live?.tools ?? createScenarioToolHost(scenario, world, key);
  const clock = live?.clock ?? new VirtualClock();
  const modelFaults = new ModelFaultInjector(scenario.modelFaults, key, clock);
  const tally = new EventTally(onEvent);
  const refetches = new RefetchCounter(scenario);
  let journal: RunJournal | null = null;
  let finished = false;

  const finish = (ending: RunEnding): RunOutput => {
    if (finished) throw new Error(`run ${spec.arm}/${seed} is already finished`);
    finished = true;
    // A live run's world is the tool server's: that is where its tools wrote.
    const ended = ending.live;
    if (live !== undefined && ended === undefined)
      throw new Error(`live run ${spec.arm}/${seed} finished without its live end (LiveRun.finish)`);
    const judged = ended?.world ?? world;
    const { outcome, metrics } = ending.result;
    const verdict = judge(scenario.check, judged, outcome.kind === 'escalated');
    const record: RunRecord = {
      sweep_seed: sweepSeed,
      scenario: scenario.id,
      arm: spec.arm,
      seed,
      model: ending.model,
      outcome: outcome.kind,
      verdict: verdict.verdict,
      verdict_reason: verdict.reason,
      tool_calls: metrics.toolCalls,
      tool_executions: metrics.toolExecutions,
      tool_retries: metrics.toolRetries,
      model_calls: metrics.modelCalls,
      input_tokens: metrics.inputTokens,
      output_tokens: metrics.outputTokens,
      cache_read_input_tokens: metrics.cacheReadTokens,
      cache_creation_input_tokens: metrics.cacheWriteTokens,
      virtual_ms: metrics.virtualMs,
      duplicate_side_effects: verdict.duplicateSideEffects,
      // A copy: the record keeps the counts as the run ended, whatever later holds the host.
      faults: { ...host.faults },
      events: tally.events,
      escalation: outcome.kind === 'escalated' ? outcome.payload : null,
      model_faults: recordedModelFaults(ended?.modelFaults ?? modelFaults.counts, ending.stream),
      refetch_calls: refetches.count,
      journal: ending.journal ? (journal ??= new RunJournal()).toRecord() : null,
      cost_usd: Math.round(metrics.costUsd * 1e6) / 1e6,
      // Appended only to live records: a virtual record's bytes stay as they were.
      ...(ended === undefined ? {} : { live: ended.record }),
      ...failureField(outcome),
      // The ensemble member, last; only with an ensemble, so other records keep their bytes.
      ...(spec.member === undefined ? {} : { member: spec.member }),
      // Appended only where the scenario declares faults in the data.
      ...(host.dataFaults === null ? {} : { data_faults: { ...host.dataFaults } }),
      // Appended only to a dataset scenario's runs: the task it played.
      ...(scenario.task === null ? {} : { task: scenario.task }),
    };
    return {
      record,
      result: ending.result,
      verdict,
      world: judged,
      ...(ended === undefined ? {} : { live: ended.tools }),
    };
  };

  return {
    scenario,
    seed,
    key,
    world,
    host,
    clock,
    modelFaults,
    live,
    hear: (event) => {
      tally.emit(event);
      refetches.observe(event);
    },
    report: tally.emit,
    toolRetries: () => tally.toolRetries,
    journal: () => (journal ??= new RunJournal()),
    hasJournal: () => journal !== null,
    finish,
  };
}
