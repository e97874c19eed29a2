import type { ServerResponse } from 'node:http';
import type { RunRow } from './run-table.js';
import { replayJson, TranscriptUnavailable } from './run-transcript.js';

/** Transcripts kept, the last opened: a diff's two sides and a few runs back. */
const KEPT_TRANSCRIPTS = 32;

/** At most `size` pieces of work at once; the rest wait their turn, in order. */
class Slots {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.size) await new Promise<void>((turn) => this.#waiting.push(turn));
    this.#running += 1;
    try {
      return await work();
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.();
    }
  }
}

/**
 * Runs' transcripts, each replayed from its seed in a process of its own. A replay is the
 * same every time: kept for the last few runs opened, shared by every request waiting for
 * it, and at most two run at once however many a page asks for (one whose askers all left
 * is not started).
 */
export class TranscriptReplays {
  readonly #transcripts = new Map<string, Promise<unknown>>();
  /** Who waits for each transcript not yet answered. */
  readonly #askers = new Map<string, Set<ServerResponse>>();
  readonly #slots = new Slots(2);
  readonly #cwd: string;

  /** `cwd`: where runs are replayed from (the sweeps' scenario paths are relative to it). */
  constructor(cwd: string) {
    this.#cwd = cwd;
  }

  /** The transcript of the run `key` names, replayed with `args` for `response`, checked to be the run `row` records. */
  async transcript(key: string, args: readonly string[], row: RunRow, response: ServerResponse): Promise<unknown> {
    const askers = this.#askers;
    const transcripts = this.#transcripts;
    let waiting = askers.get(key);
    if (waiting === undefined) askers.set(key, (waiting = new Set()));
    const asking = waiting;
    asking.add(response);
    response.once('close', () => asking.delete(response));
    let transcript = transcripts.get(key);
    if (transcript === undefined) {
      transcript = this.#slots.run(async () => {
        // Started only for someone still waiting: every asker may have left while it queued.
        if (![...(askers.get(key) ?? [])].some((asker) => !asker.destroyed))
          throw new TranscriptUnavailable('nobody is waiting for this run any more');
        return sameRun(await replayJson(args, this.#cwd), row);
      });
      transcripts.set(key, transcript);
      transcript.catch(() => transcripts.delete(key));
      if (transcripts.size > KEPT_TRANSCRIPTS) transcripts.delete(transcripts.keys().next().value!);
    }
    try {
      return await transcript;
    } finally {
      asking.delete(response);
      if (asking.size === 0) askers.delete(key);
    }
  }
}

/**
 * The replayed run, if it is the sweep's: the same verdict, outcome, counts, task and
 * member as its record. Otherwise what was changed since the sweep (the scenario, its
 * dataset, an arms file or agent, or the folder the viewer reads paths from) would be
 * shown as the sweep's run.
 */
function sameRun(replayed: unknown, row: RunRow): unknown {
  const record = (replayed as { record?: Record<string, unknown> }).record ?? {};
  const fields = ['verdict', 'outcome', 'tool_calls', 'model_calls', 'input_tokens', 'task', 'member'] as const;
  const differs = fields.filter((field) => record[field] !== row[field]);
  if (differs.length > 0)
    throw new TranscriptUnavailable(
      `replaying this run does not give the sweep's record of it (${differs.map((field) => `${field}: ${String(row[field])} recorded, ${String(record[field])} now`).join('; ')}): its scenario, dataset, arms or agent changed since the sweep ran, or the viewer was started in another folder than the sweep`,
    );
  return replayed;
}
