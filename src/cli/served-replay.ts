import { basename } from 'node:path';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { didYouMean } from '../did-you-mean.js';
import type { AgentEvent } from '../loop/events.js';
import { runFooter } from '../report/run-footer.js';
import { renderTranscript } from '../report/transcript.js';
import { openFinishedSweep, readRuns, readTraces } from '../results/results-reader.js';
import type { StoredRun } from '../results/run-record-schema.js';
import type { StoredTrace } from '../results/trace-schema.js';
import type { World } from '../tools/world.js';
import { UserInputError } from '../user-input-error.js';

/**
 * `replay --results <dir>`: a run of a finished sweep as it was recorded, for runs that
 * cannot be run again from their seed (a served run: the agent lived in another
 * process). Prints its trace when the sweep kept one, else its record.
 */
export async function replayRecorded(dir: string, run: RecordedRunAddress): Promise<string> {
  const { record, trace } = await recordedRun(dir, run);
  const served = record.model === 'simulated-served';
  const header = [
    `${record.scenario} · arm ${record.arm} · seed ${record.seed}${record.task === undefined ? '' : ` · task ${record.task}`} · sweep seed ${record.sweep_seed} · model ${record.model}`,
    served
      ? 'served run: an agent in another process ran it through `spiralbench serve`; it cannot be run again from its seed, so this is what the run recorded (tool calls and results; the transcript stayed with the agent)'
      : 'recorded run: as the results folder holds it',
  ];
  const footer = [
    `outcome: ${record.outcome}`,
    ...runFooter(record, { verdict: record.verdict, reason: record.verdict_reason }),
  ];
  if (trace === undefined)
    return `${[...header, '  (no timeline kept for this run: traces keep the worst, failed, escalated and harmful runs of a cell)', '', ...footer].join('\n')}\n`;
  const messages: MessageParam[] = [{ role: 'user', content: trace.prompt }];
  return renderTranscript({
    header,
    events: trace.events as unknown as AgentEvent[],
    messages,
    world: { outbox: trace.outbox } as unknown as World,
    footer,
  });
}

/** Which recorded run: as `replay` names it, its scenario as given to `run` (an id or a .yaml path). */
export interface RecordedRunAddress {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  /** The sweep seed given on the command line; undefined when left out (the folder's is the run's). */
  readonly sweepSeed: number | undefined;
}

/** A finished sweep's record of one run, with its trace when the sweep kept one. */
export async function recordedRun(
  dir: string,
  { scenario: given, arm, seed, sweepSeed }: RecordedRunAddress,
): Promise<{ readonly record: StoredRun; readonly trace: StoredTrace | undefined }> {
  const sweep = openFinishedSweep(dir);
  const { summary } = sweep;
  if (sweepSeed !== undefined && sweepSeed !== summary.sweep_seed)
    throw UserInputError.single(
      '--sweep-seed',
      String(sweepSeed),
      `${summary.sweep_seed}, the sweep seed of ${dir} (leave it out with --results: the folder says it)`,
    );
  const ids = summary.scenarios.map((entry) => entry.id);
  // A scenario given by its file: its id is the file's name (the loader holds them equal),
  // so the file need not be there, nor still valid, to show what the sweep recorded.
  const scenario = ids.includes(given) ? given : basename(given).replace(/\.(?:ya?ml|json)$/i, '');
  if (!ids.includes(scenario))
    throw UserInputError.single(
      '--scenario',
      '',
      `a scenario of the sweep in ${dir} (${ids.join(', ')}); got '${given}'${didYouMean(given, ids)}`,
    );
  const traces = (await readTraces(sweep)) ?? [];
  const trace = traces.find(
    (candidate) => candidate.scenario === scenario && candidate.arm === arm && candidate.seed === seed,
  );
  let record: StoredRun | undefined = trace?.record as StoredRun | undefined;
  if (record === undefined)
    await readRuns(sweep, (run) => {
      if (run.scenario === scenario && run.arm === arm && run.seed === seed) record = run;
    });
  if (record === undefined)
    throw UserInputError.single(dir, '', `a run of ${scenario} · arm ${arm} with seed ${seed}; this sweep has none`);
  return { record, trace };
}
