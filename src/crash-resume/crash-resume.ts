import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { VirtualClock } from '../clock/virtual-clock.js';
import type { CheckpointStore } from '../durability/checkpoint-store.js';
import { CrashingDurability, SimulatedCrash, type CrashPoint } from '../durability/crash-injection.js';
import { ModelFaultInjector } from '../faults/model-faults.js';
import { BudgetedAgentLoop, type LoopOptions } from '../loop/budgeted-agent-loop.js';
import type { RunDurability, SavedRun } from '../loop/durability.js';
import type { AgentEvent } from '../loop/events.js';
import type { OutcomeKind } from '../loop/outcome.js';
import { stream, type StreamKey } from '../random/streams.js';
import { judge, type VerdictKind } from '../scenarios/judge.js';
import type { Scenario } from '../scenarios/loader.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import { createWorld, type World } from '../tools/world.js';
import { buildGuards, type Arm } from '../arms/arms.js';
import { simulatedClient } from '../run/model-source.js';
import { createScenarioToolHost, type ScenarioToolHost } from '../run/scenario-tool-host.js';

/** How a crashed run is picked up: from its checkpoint through the envelope, or naively (from its last user message, no envelope). */
export type ResumeMode = 'envelope' | 'naive';

/** One crash-and-resume of one run, as crash-resume.jsonl holds it. */
export interface CrashResumeRecord {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly mode: ResumeMode;
  /** The crash point, 1-based, of `points` the run passes when nothing goes wrong. */
  readonly crash_at: number;
  readonly points: number;
  readonly crash: CrashPoint;
  /** The uncrashed run's verdict and duplicated writes, for reference. */
  readonly uncrashed_verdict: VerdictKind;
  readonly uncrashed_duplicate_side_effects: number;
  readonly outcome: OutcomeKind | 'ended_before_crash';
  readonly verdict: VerdictKind;
  readonly duplicate_side_effects: number;
  /** Tool calls completed before the crash that ran again after it: work whose result was lost. */
  readonly lost_results: number;
  /** Side-effecting calls that had run before the crash and ran again after it: writes the resume duplicated. */
  readonly resume_duplicates: number;
  /** Completed calls answered from the envelope without running again. */
  readonly replayed: number;
}

interface RunParts {
  readonly world: World;
  /** The scenario's tools: services that outlive the process, with their own fault sequence. */
  readonly tools: ScenarioToolHost;
  readonly clock: VirtualClock;
  readonly durability: RunDurability | null;
  readonly onEvent?: (event: AgentEvent) => void;
}

/** A loop for one process's life of the run: fresh guards, tools and model, over the world that outlives it. */
async function loopFor(scenario: Scenario, arm: Arm, key: StreamKey, parts: RunParts): Promise<BudgetedAgentLoop> {
  const faults = new ModelFaultInjector(scenario.modelFaults, key, parts.clock);
  const model = simulatedClient(scenario, key, faults, parts.clock);
  const options: LoopOptions = {
    model,
    tools: parts.tools,
    guards: buildGuards(arm, scenario, key),
    system: scenario.system,
    clock: parts.clock,
    ...(scenario.history.length > 0 ? { history: scenario.history as MessageParam[] } : {}),
    ...(parts.durability === null ? {} : { durability: parts.durability }),
    ...(parts.onEvent === undefined ? {} : { onEvent: parts.onEvent }),
  };
  return new BudgetedAgentLoop(options);
}

/** The transcript a naive resume starts from: everything up to the last user message. */
function upToLastUserMessage(messages: readonly MessageParam[]): MessageParam[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role !== 'user') end -= 1;
  return messages.slice(0, end);
}

/**
 * Crashes one run at a seeded point and resumes it. A dry run counts the points where a
 * process could die (after each checkpoint, before a tool runs, after it ran but before
 * its result is kept); one is drawn from the run's own stream, the run is crashed there
 * with its checkpoints in `store`, and a new "process" (fresh loop, guards, tools and
 * model, the same world) resumes it. The world is then judged: a write done twice is a
 * duplicate side effect, whatever the resume believed.
 */
export async function crashAndResume(
  store: CheckpointStore,
  played: Scenario,
  arm: Arm,
  seed: number,
  sweepSeed: number,
  mode: ResumeMode,
): Promise<CrashResumeRecord> {
  const scenario = scenarioForSeed(played, seed);
  const key: StreamKey = { sweepSeed, scenario: scenario.id, runSeed: seed };
  const dryWorld = createWorld(scenario.world);
  const counter = new CrashingDurability(null, null);
  const dryParts = {
    world: dryWorld,
    tools: createScenarioToolHost(scenario, dryWorld, key),
    clock: new VirtualClock(),
    durability: counter,
  };
  const dry = await (await loopFor(scenario, arm, key, dryParts)).run(scenario.prompt);
  const uncrashed = judge(scenario.check, dryWorld, dry.outcome.kind === 'escalated');
  const points = counter.points;
  const crashAt = 1 + Math.floor(stream(key, `crash-point/${arm.name}`, 0).next() * points);

  const runId = `${mode}/${scenario.id}/${arm.name}/${seed}`;
  const world = createWorld(scenario.world);
  const tools = createScenarioToolHost(scenario, world, key);
  const crashing = new CrashingDurability(store.forRun(runId, scenario.system), crashAt);
  let crash: CrashPoint;
  try {
    await (await loopFor(scenario, arm, key, { world, tools, clock: new VirtualClock(), durability: crashing })).run(
      scenario.prompt,
    );
    throw new Error(
      `run ${runId} passed its crash point ${crashAt} of ${points} without crashing: the dry run and the crashed run differ`,
    );
  } catch (error) {
    if (!(error instanceof SimulatedCrash)) throw error;
    crash = error.point;
  }

  const base = {
    scenario: scenario.id,
    arm: arm.name,
    seed,
    mode,
    crash_at: crashAt,
    points,
    crash,
    uncrashed_verdict: uncrashed.verdict,
    uncrashed_duplicate_side_effects: uncrashed.duplicateSideEffects,
  };
  const resumePoint = store.resumePoint(runId);
  if (resumePoint.kind === 'refused') {
    // The crash came after the run's last checkpoint: it had ended; the world is final.
    const verdict = judge(scenario.check, world, dry.outcome.kind === 'escalated');
    return {
      ...base,
      outcome: 'ended_before_crash',
      verdict: verdict.verdict,
      duplicate_side_effects: verdict.duplicateSideEffects,
      lost_results: 0,
      resume_duplicates: 0,
      replayed: 0,
    };
  }
  const saved = resumePoint.saved;
  const completedBefore = completedCalls(store, runId, saved);
  // A call that ran but whose result the crash kept from the store ran all the same.
  const ranBefore = new Set(completedBefore);
  if (crash.kind === 'mid_tool' || crash.kind === 'after_tool') ranBefore.add(crash.id);
  const replayed = new Set<string>();
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'agent.tool.replayed') replayed.add(event.id);
  };
  const clock = new VirtualClock(saved.at);
  // The resumed process logs the calls it actually runs; the naive one stores nothing.
  const log = new CrashingDurability(mode === 'envelope' ? store.forRun(runId, scenario.system) : null, null);
  const loop = await loopFor(scenario, arm, key, { world, tools, clock, durability: log, onEvent });
  const resumed =
    mode === 'envelope'
      ? await loop.resume(saved)
      : await loop.resume({ ...saved, messages: upToLastUserMessage(saved.messages), boundary: 'tool_results' });
  const escalated = resumed.outcome.kind === 'escalated' || resumed.outcome.kind === 'waiting_on_human';
  const verdict = judge(scenario.check, world, escalated);
  const again = [...log.started].filter(([id]) => ranBefore.has(id));
  const lost = again.filter(([id]) => completedBefore.has(id)).length;
  const duplicates = again.filter(([, tool]) => tools.traits(tool)?.sideEffecting === true).length;
  return {
    ...base,
    outcome: resumed.outcome.kind,
    verdict: verdict.verdict,
    duplicate_side_effects: verdict.duplicateSideEffects,
    lost_results: lost,
    resume_duplicates: duplicates,
    replayed: replayed.size,
  };
}

/** Ids of the calls the envelope had as completed when the process died. */
function completedCalls(store: CheckpointStore, runId: string, saved: SavedRun): Set<string> {
  const ids = new Set<string>();
  const last = saved.messages.at(-1);
  // Completed calls are the ones the transcript answers plus those the envelope finished
  // after the last checkpoint (a crash before the results were checkpointed).
  for (const message of saved.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') ids.add(block.tool_use_id);
  }
  if (last?.role === 'assistant' && typeof last.content !== 'string') {
    for (const block of last.content)
      if (block.type === 'tool_use' && store.isCompleted(runId, block.id)) ids.add(block.id);
  }
  return ids;
}
