import { SpendLimitedModel, SpendLimitReached } from '../model/spend-limit.js';
import { type CassetteUse, RecordingClient, ReplayingClient } from '../cassettes/cassette-client.js';
import type { RunDurability } from '../loop/durability.js';
import type { AgentEvent } from '../loop/events.js';
import { runLoop } from '../run/loop-run.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';
import { openRun, type RunOutput } from '../run/run-session.js';
import type { Scenario } from '../scenarios/loader.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { type Arm, buildGuards } from './arms.js';

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
  /** Mark requests for the prompt cache (LoopOptions.promptCaching); '1h' with the hour-long lifetime. @default true */
  readonly promptCache?: boolean | '1h';
  /** The ensemble member whose persona `scenario` carries; the record gets it last. @default none (no member field) */
  readonly member?: number | undefined;
  /** Record the run's model calls into a cassette folder, or answer them from it (docs/cassettes.md). @default neither */
  readonly cassette?: CassetteUse | undefined;
}

/**
 * One cell of the matrix: a scenario, an arm and a seed, run and judged on its world. An
 * arm that names an agent runs it (`runAgentArm`); any other runs our own loop with the
 * arm's guards. Both drive one run session (`openRun`), which judges the run.
 */
export async function runOne(spec: RunSpec): Promise<RunOutput> {
  const { arm, seed, sweepSeed } = spec;
  // A dataset scenario's run plays its seed's task: its model, guards and live servers are that task's.
  const scenario = scenarioForSeed(spec.scenario, seed);
  if (arm.peer !== undefined || arm.agent !== undefined) {
    // Loaded on demand: sweeps without agent arms never load an agent or its framework.
    const { runAgentArm } = await import('./agent-arm-run.js');
    return runAgentArm({
      sweepSeed,
      scenario,
      arm,
      seed,
      member: spec.member,
      cassette: spec.cassette,
      ...(spec.model === undefined ? {} : { model: spec.model }),
      ...(spec.onEvent === undefined ? {} : { onEvent: spec.onEvent }),
    });
  }
  const source = spec.model ?? IN_PROCESS;
  // Live servers serve the whole scenario: each run's seed picks its task there.
  const live = source.live === undefined ? undefined : await source.live.run(spec.scenario, arm.name, seed);
  const session = openRun({
    sweepSeed,
    scenario,
    arm: arm.name,
    seed,
    member: spec.member,
    live,
    onEvent: spec.onEvent,
  });
  const made = live?.model ?? source.clientFor(scenario, session.key, session.modelFaults, session.clock, arm.name);
  // Awaited only when it is a promise: the in-process run, a sweep's usual one, does not wait a turn.
  const client = made instanceof Promise ? await made : made;
  const { cassette } = spec;
  // Only a sweep with a cassette pays for one: the usual run goes straight to its client.
  const context =
    cassette === undefined
      ? undefined
      : {
          run: { scenario: scenario.id, arm: arm.name, seed, member: spec.member },
          clock: session.clock,
          faultCounts: session.modelFaults.counts,
        };
  const recorder =
    context !== undefined && cassette?.mode === 'record' ? new RecordingClient(client, context) : undefined;
  const replaying =
    context !== undefined && cassette?.mode === 'replay'
      ? ReplayingClient.open(cassette.dir, client.name, context, cassette.recordMissing === true ? client : undefined)
      : undefined;
  const model = recorder ?? replaying ?? client;
  const { modelId } = source;
  const output = await runLoop(session, {
    model,
    modelId,
    guards: buildGuards(arm, scenario, session.key, modelId, session.journal()),
    keepsJournal: arm.guards.some((setting) => setting.guard === 'journal'),
    durability: spec.durability,
    stream: spec.stream,
    promptCache: spec.promptCache,
    onExecution: spec.onExecution,
  });
  // Cut short by the sweep's spend limit: not the agent's result, so not a record (resume runs it again).
  if (client instanceof SpendLimitedModel && client.refused)
    throw new SpendLimitReached(`${scenario.id} · ${arm.name} · seed ${seed}: cut short by --max-cost`);
  if (recorder !== undefined) recorder.save(cassette!.dir);
  replaying?.saveRecorded(cassette!.dir);
  return output;
}
