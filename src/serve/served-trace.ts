import type { TraceReason } from '../sweep/cell-accumulator.js';
import { shellWord } from '../sweep/replay-command.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { HEAD_EVENTS, TAIL_EVENTS, type Trace } from '../sweep/traces.js';
import type { ServedRun } from './served-run.js';

/**
 * A served run's timeline as it happened: an out-of-process agent cannot be run again
 * from its seed, so the trace is what the run recorded (its tool calls and results, and
 * what its model said, read off the wire as for an in-process agent), and its replay
 * command prints this trace from the results folder.
 *
 * @example
 * const trace = servedTrace({ record, run, reasons: ['failure'], scenarioRef: 'fetch-transform-write', dir: 'results/served' });
 */
export function servedTrace(spec: {
  readonly record: RunRecord;
  readonly run: ServedRun;
  readonly reasons: readonly TraceReason[];
  readonly scenarioRef: string;
  readonly dir: string;
}): Trace {
  const { record, run } = spec;
  const { events } = run;
  const omitted = Math.max(0, events.length - HEAD_EVENTS - TAIL_EVENTS);
  return {
    scenario: record.scenario,
    arm: record.arm,
    seed: record.seed,
    sweep_seed: record.sweep_seed,
    reasons: spec.reasons,
    replay: servedReplayCommand(spec.dir, spec.scenarioRef, record.arm, record.seed),
    record,
    prompt: run.session.scenario.prompt,
    events: omitted === 0 ? [...events] : [...events.slice(0, HEAD_EVENTS), ...events.slice(-TAIL_EVENTS)],
    assistant_texts: run.assistantTexts,
    events_omitted: omitted,
    outbox: run.session.world.outbox,
  };
}

/** The command that prints a served run's recorded trace. */
export function servedReplayCommand(dir: string, scenario: string, arm: string, seed: number): string {
  return ['spiralbench', 'replay', '--results', dir, '--scenario', scenario, '--arm', arm, '--seed', String(seed)]
    .map(shellWord)
    .join(' ');
}
