import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoredSummary } from '../results/summary-schema.js';
import type { StoredTrace } from '../results/trace-schema.js';
import { SERVED_MODEL } from '../results/served-model.js';
import { memberFor } from '../sweep/ensemble-cast.js';
import { shellWords } from '../sweep/replay-command.js';

const BIN = fileURLToPath(new URL('../../bin/spiralbench.js', import.meta.url));

/** The flags `replayCommand` writes, and those of them that take a value. */
const VALUED = new Set([
  '--scenario',
  '--arm',
  '--seed',
  '--sweep-seed',
  '--arms-file',
  '--agent',
  '--ensemble',
  '--member',
  '--via',
  '--results',
]);
const REPLAY_FLAGS = new Set([...VALUED, '--stream', '--no-prompt-cache']);

/** A run a viewer opens. */
export interface RunAddress {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
}

/** Why a run cannot be shown whole, in words for the page. */
export class TranscriptUnavailable extends Error {
  override readonly name = 'TranscriptUnavailable';
}

/**
 * A served run as its sweep's trace recorded it, in `replay --json`'s shape: its agent ran
 * in another process, so only what the trace kept (the prompt, what the agent's model
 * said as read off the wire, the tool calls and results, the outbox) can be shown, read
 * from the sweep's own folder.
 */
export function recordedJson(traces: readonly StoredTrace[], run: RunAddress): unknown {
  const trace = traces.find(
    (candidate) => candidate.scenario === run.scenario && candidate.arm === run.arm && candidate.seed === run.seed,
  );
  if (trace === undefined)
    throw new TranscriptUnavailable(
      'a served run is shown as its trace recorded it, and this run was not traced (its agent ran in another process)',
    );
  return {
    version: 1,
    rerun: false,
    record: trace.record,
    events: trace.events,
    messages: [
      { role: 'user', content: trace.prompt },
      ...trace.assistant_texts.map((text) => ({ role: 'assistant', content: text })),
    ],
    world: { outbox: trace.outbox },
  };
}

/**
 * The `replay` arguments that show a run: those of a traced run of the same cell (its
 * scenario as the sweep named it, its arms file or agent, its ensemble, `--via`,
 * `--stream`), with this run's seed and, with an ensemble, the member that played it.
 * Only a simulated model's run is run again: a real model's would be answered by the
 * simulated one, which is not what happened; a served run is shown as recorded.
 */
export function replayArguments(
  summary: StoredSummary,
  traces: readonly StoredTrace[],
  run: RunAddress,
  cwd = process.cwd(),
): string[] {
  const model = summary.model;
  const served = model === SERVED_MODEL;
  if (!served && (!model.startsWith('simulated') || summary.live !== undefined))
    throw new TranscriptUnavailable(
      `this sweep ran ${model}${summary.live === undefined ? '' : ' live'}: its runs cannot be run again from their seeds; what its traces kept is in traces.jsonl`,
    );
  const template = traces.find((trace) => trace.scenario === run.scenario && trace.arm === run.arm);
  if (template === undefined)
    throw new TranscriptUnavailable(`no traced run of ${run.scenario} · ${run.arm} says how to replay this cell`);
  if (served) throw new TranscriptUnavailable('a served run is shown from its trace (recordedJson), not replayed');
  const words = shellWords(template.replay);
  // Only what replayCommand writes: a traces.jsonl edited by hand must not add other flags.
  if (!writtenByReplayCommand(words))
    throw new TranscriptUnavailable(`the traced run's replay command is not one spiralbench wrote: ${template.replay}`);
  words.splice(0, 2);
  // An agent's module runs in the replay: only the one the sweep recorded for this arm.
  if (words.includes('--agent')) {
    const agent = words[words.indexOf('--agent') + 1]!;
    const recorded = (summary.arms.find((arm) => arm.name === run.arm) as { agent?: { module?: unknown } } | undefined)
      ?.agent;
    if (recorded?.module !== resolve(cwd, agent.split('#')[0]!))
      throw new TranscriptUnavailable(
        `the traced run's agent (${agent}) is not the module this sweep recorded for ${run.arm}; start the viewer in the folder the sweep ran from`,
      );
  }
  const set = (flag: string, value: string) => {
    const at = words.indexOf(flag);
    if (at !== -1) words[at + 1] = value;
  };
  set('--seed', String(run.seed));
  if (summary.ensemble !== undefined)
    set('--member', String(memberFor(run.seed, summary.seeds.base, summary.ensemble.members)));
  return words;
}

/** `spiralbench replay` and then only its flags, each valued one with its value. */
function writtenByReplayCommand(words: readonly string[]): boolean {
  if (words[0] !== 'spiralbench' || words[1] !== 'replay') return false;
  const seen = new Set<string>();
  for (let i = 2; i < words.length; i += 1) {
    const flag = words[i]!;
    if (!REPLAY_FLAGS.has(flag) || seen.has(flag)) return false;
    seen.add(flag);
    if (VALUED.has(flag)) {
      if (i + 1 >= words.length) return false;
      i += 1;
    }
  }
  return true;
}

/**
 * The run's whole story as `replay --json` prints it (record, events, messages, world), by
 * running `spiralbench replay` in a process of its own: a user's agent or tools module
 * runs there, never in the viewer, and the viewer's answer cannot be held by it for longer
 * than `timeoutMs`. Paths in the arguments are the sweep's, read from `cwd`.
 */
export function replayJson(args: readonly string[], cwd: string, timeoutMs = 120_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, 'replay', ...args, '--json'],
      { cwd, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        if (error !== null) {
          const first = (stderr.trim() || error.message).split('\n')[0] ?? '';
          // The sweep's paths (scenario, dataset, arms file, agent) are read from where the viewer started.
          const hint = /not found|ENOENT/.test(first)
            ? ` (the viewer reads the sweep's paths from ${cwd}: start it in the folder the sweep was run from)`
            : '';
          reject(new TranscriptUnavailable(`replay failed: ${first}${hint}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new TranscriptUnavailable('replay printed something that is not JSON'));
        }
      },
    );
  });
}
