import type { AgentEvent } from '../loop/events.js';
import type { Scenario } from '../scenarios/loader.js';
import type { OutboxEntry } from '../scenarios/world.js';
import type { Arm } from './arms.js';
import type { TraceReason } from './cell-accumulator.js';
import { runOne, type ModelChoice } from './run-one.js';
import type { RunRecord } from './run-record.js';
import { contentText } from '../model/content-text.js';

/** Events kept at the start and the end of a long run's timeline. */
const HEAD_EVENTS = 300;
const TAIL_EVENTS = 100;

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
  /** The run's events; agent.model.call events line up with `assistant_texts`. */
  readonly events: readonly AgentEvent[];
  readonly assistant_texts: readonly string[];
  /** Events left out of the middle of a long run (0 when none). */
  readonly events_omitted: number;
  readonly outbox: readonly OutboxEntry[];
}

/** The command that reproduces a run, byte for byte. */
export function replayCommand(scenario: string, arm: string, seed: number, sweepSeed: number): string {
  return `spiralbench replay --scenario ${scenario} --arm ${arm} --seed ${seed}${sweepSeed === 0 ? '' : ` --sweep-seed ${sweepSeed}`}`;
}

/** Run one cell of the matrix again, recording its events: runs are seeded, so it is the same run. */
export async function captureTrace(
  scenario: Scenario,
  arm: Arm,
  seed: number,
  sweepSeed: number,
  reasons: readonly TraceReason[],
  model: ModelChoice = { kind: 'simulated' },
  stream = false,
): Promise<Trace> {
  const events: AgentEvent[] = [];
  const { record, result, world } = await runOne({
    sweepSeed,
    scenario,
    arm,
    seed,
    model,
    stream,
    onEvent: (event) => events.push(event),
  });
  const assistantTexts = result.messages
    .filter((message) => message.role === 'assistant')
    .map((message) => contentText(message.content));
  const omitted = Math.max(0, events.length - HEAD_EVENTS - TAIL_EVENTS);
  return {
    scenario: scenario.id,
    arm: arm.name,
    seed,
    sweep_seed: sweepSeed,
    reasons,
    replay: replayCommand(scenario.id, arm.name, seed, sweepSeed),
    record,
    prompt: scenario.prompt,
    events: omitted === 0 ? events : [...events.slice(0, HEAD_EVENTS), ...events.slice(-TAIL_EVENTS)],
    assistant_texts: assistantTexts,
    events_omitted: omitted,
    outbox: world.outbox,
  };
}
