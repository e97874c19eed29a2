import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../loop/events.js';
import type { Scenario } from '../scenarios/loader.js';
import type { OutboxEntry } from '../tools/world.js';
import type { Arm } from '../arms/arms.js';
import type { TraceReason } from './cell-accumulator.js';
import { runOne } from '../arms/run-one.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';
import { replayCommand } from './replay-command.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { contentText } from '../model/content-text.js';

/** Events kept at the start and the end of a long run's timeline. */
export const HEAD_EVENTS = 300;
export const TAIL_EVENTS = 100;

/** One run's timeline, saved with a sweep (traces.jsonl) for reports to drill into. */
export interface Trace {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly sweep_seed: number;
  readonly reasons: readonly TraceReason[];
  readonly replay: string;
  readonly record: RunRecord;
  readonly prompt: string;
  /** The run's events; our loop's agent.model.call events line up with `assistant_texts`. */
  readonly events: readonly AgentEvent[];
  /** What the model said at each reply; an agent's, its conversation's as read off the wire. */
  readonly assistant_texts: readonly string[];
  /** Events left out of the middle of a long run (0 when none). */
  readonly events_omitted: number;
  readonly outbox: readonly OutboxEntry[];
}

/** How a sweep's command line named what it ran, so a trace's replay command names it the same way. */
export interface TraceNames {
  /** The scenario as given to run: its id, or its file's path. @default the scenario's id */
  readonly scenario?: string;
  /** The arms file that defines the arm, when it is a custom one. */
  readonly armsFile?: string;
  /** The agent module of an `agent:` arm not from an arms file, as `--agent` takes it (shownAgentSpec). */
  readonly agent?: string;
  /** The ensemble as the sweep named it, and the member that played the run; absent without one. */
  readonly ensemble?: string;
  readonly member?: number;
}

/** Run one cell of the matrix again, recording its events: runs are seeded, so it is the same run. */
export async function captureTrace(
  scenario: Scenario,
  arm: Arm,
  seed: number,
  sweepSeed: number,
  reasons: readonly TraceReason[],
  model: ModelSource = inProcessModel(),
  stream = false,
  cassette: CassetteUse | undefined = undefined,
  names: TraceNames = {},
  promptCache = true,
): Promise<Trace> {
  const events: AgentEvent[] = [];
  const { record, result, world } = await runOne({
    sweepSeed,
    scenario,
    arm,
    seed,
    model,
    stream,
    promptCache,
    cassette,
    member: names.member,
    onEvent: (event) => events.push(event),
  });
  const assistantTexts = assistantTextsOf(result.messages);
  const omitted = Math.max(0, events.length - HEAD_EVENTS - TAIL_EVENTS);
  return {
    scenario: scenario.id,
    arm: arm.name,
    seed,
    sweep_seed: sweepSeed,
    reasons,
    replay: replayCommand({
      scenario: names.scenario ?? scenario.id,
      arm: arm.name,
      seed,
      sweepSeed,
      ...(names.armsFile === undefined ? {} : { armsFile: names.armsFile }),
      ...(names.agent === undefined ? {} : { agent: names.agent }),
      ...(names.ensemble === undefined || names.member === undefined
        ? {}
        : { ensemble: names.ensemble, member: names.member }),
      viaSdk: model.viaSdk,
      stream,
      promptCache,
    }),
    record,
    // The prompt the run was given: of a dataset, its seed's task's.
    prompt: scenarioForSeed(scenario, seed).prompt,
    events: omitted === 0 ? events : [...events.slice(0, HEAD_EVENTS), ...events.slice(-TAIL_EVENTS)],
    assistant_texts: assistantTexts,
    events_omitted: omitted,
    outbox: world.outbox,
  };
}

/** What the model said at each reply of a conversation: its assistant messages' text. */
export function assistantTextsOf(messages: readonly MessageParam[]): string[] {
  return messages.filter((message) => message.role === 'assistant').map((message) => contentText(message.content));
}
