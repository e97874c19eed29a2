import { join } from 'node:path';
import { VERSION } from '../version.js';
import { discard, writeFileAtomic, writeTempFile } from './atomic-write.js';
import { FORMAT_VERSION } from './format-version.js';
import type { StoredMeta } from './meta-schema.js';
import type { StoredProgress, StoredSweepIdentity } from './progress-schema.js';
import { CSV_FILE, META_FILE, PROGRESS_FILE, RUNS_FILE, SUMMARY_FILE, TRACES_FILE } from './results-files.js';
import { NODE_FS, ResultsWriteError, tempPath, writeAll, type ResultsFs } from './results-fs.js';
import { CSV_HEADER } from './run-csv.js';
import type { StoredSummary } from './summary-schema.js';
import type { StoredTrace } from './trace-schema.js';

/** Finished runs, in output order, already formatted: runs.jsonl lines and runs.csv rows. */
export interface RunChunk {
  readonly runs: number;
  readonly jsonl: string;
  readonly csv: string;
}

/**
 * How runs reach the folder. A sweep writes in place, durably: appended chunks are synced
 * in the background, several at a time (a group commit), and only then does progress.json
 * (replaced atomically) record how far the run files go. A sweep killed at any moment
 * loses at most the chunks not yet synced, and a resume cuts the files back to what
 * progress.json records. A merge is staged: everything goes to temporary files renamed
 * into place by `close`, so a merge that fails leaves the folder as it was.
 */
type Mode =
  | { readonly kind: 'sweep'; readonly identity: StoredSweepIdentity }
  | { readonly kind: 'merge'; readonly runsTemp: string; readonly csvTemp: string };

/** How far the run files go: the chunks and runs they hold whole, and their sizes. */
interface Mark {
  readonly chunks: number;
  readonly runs: number;
  readonly jsonlBytes: number;
  readonly csvBytes: number;
}

/**
 * The one writer of a results folder's runs.jsonl, runs.csv, summary.json, traces.jsonl
 * and progress.json. Made by a claimed folder (results-folder.ts), which holds its lock.
 * Per chunk it only appends the text it is given: nothing is parsed or checked here.
 *
 * A sweep's chunk is on disk once `sync()` resolves after its `append`. The fsyncs run
 * off the main thread, and one sync covers every chunk appended before it starts, so a
 * sweep's workers never wait on the disk.
 */
export class ResultsWriter {
  readonly dir: string;
  readonly #fs: ResultsFs;
  readonly #mode: Mode;
  /** Open file descriptors of the run files; undefined once closed. */
  #jsonl: number | undefined;
  #csv: number | undefined;
  /** What the run files hold, whole chunks only. */
  #appended: Mark;
  /** What progress.json records: the chunks synced. Equal to `#appended` for a merge. */
  #durable: Mark;
  /** The sync in flight, and the one waiting behind it (it covers every chunk appended before it starts). */
  #syncing: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  /** Bumped when a failed sync cuts the files back to `#durable`: a sync asked for before then failed. */
  #cuts = 0;
  #lastCut: ResultsWriteError | undefined;
  #open = true;
  /** A failed chunk that could not be cut back: every later chunk fails with it. */
  #broken: ResultsWriteError | undefined;

  /** A sweep's writer. `resume`: continue the run files an interrupted sweep left, cut back to what it synced. */
  static forSweep(
    dir: string,
    identity: StoredSweepIdentity,
    resume: StoredProgress | undefined,
    fs: ResultsFs = NODE_FS,
  ): ResultsWriter {
    return new ResultsWriter(dir, { kind: 'sweep', identity }, resume, fs);
  }

  /** A merge's writer: nothing in the folder changes until `close`. */
  static forMerge(dir: string, fs: ResultsFs = NODE_FS): ResultsWriter {
    const mode: Mode = {
      kind: 'merge',
      runsTemp: tempPath(join(dir, RUNS_FILE)),
      csvTemp: tempPath(join(dir, CSV_FILE)),
    };
    return new ResultsWriter(dir, mode, undefined, fs);
  }

  private constructor(dir: string, mode: Mode, resume: StoredProgress | undefined, fs: ResultsFs) {
    this.dir = dir;
    this.#fs = fs;
    this.#mode = mode;
    this.#appended = this.#durable = {
      chunks: resume?.chunks_done ?? 0,
      runs: resume?.runs_done ?? 0,
      jsonlBytes: resume?.jsonl_bytes ?? 0,
      csvBytes: resume?.csv_bytes ?? 0,
    };
    const jsonlPath = join(dir, RUNS_FILE);
    const csvPath = join(dir, CSV_FILE);
    if (mode.kind === 'merge') {
      try {
        this.#jsonl = fs.openSync(mode.runsTemp, 'w');
        this.#csv = fs.openSync(mode.csvTemp, 'w');
        this.#appended = this.#durable = { ...this.#appended, csvBytes: writeAll(fs, this.#csv, CSV_HEADER) };
      } catch (error) {
        this.abandon();
        throw new ResultsWriteError(jsonlPath, error);
      }
      return;
    }
    // A summary only ever describes finished runs: an unfinished sweep leaves none behind,
    // so merge, compare and report cannot take its partial runs for a whole sweep.
    for (const stale of [SUMMARY_FILE, TRACES_FILE]) fs.rmSync(join(dir, stale), { force: true });
    if (resume === undefined) {
      // A fresh sweep: an older sweep's progress no longer describes these files.
      fs.rmSync(join(dir, PROGRESS_FILE), { force: true });
      try {
        this.#jsonl = openEmptyForAppend(fs, jsonlPath);
        this.#csv = openEmptyForAppend(fs, csvPath);
        this.#appended = this.#durable = { ...this.#appended, csvBytes: writeAll(fs, this.#csv, CSV_HEADER) };
      } catch (error) {
        this.#closeRunFiles();
        throw new ResultsWriteError(this.#csv === undefined ? jsonlPath : csvPath, error);
      }
    } else {
      // Whatever a crash left past the synced sizes is half a chunk: cut it off.
      fs.truncateSync(jsonlPath, resume.jsonl_bytes);
      fs.truncateSync(csvPath, resume.csv_bytes);
      this.#jsonl = fs.openSync(jsonlPath, 'a');
      this.#csv = fs.openSync(csvPath, 'a');
    }
  }

  /**
   * Appends a chunk, all or nothing: if a write fails (a full disk), the run files are cut
   * back to the chunk before and the error names the file, so the same chunk can be
   * appended again once there is room. A sweep's chunk is durable once `sync()` resolves.
   */
  append(chunk: RunChunk): void {
    const jsonl = this.#jsonl;
    const csv = this.#csv;
    if (this.#broken !== undefined) throw this.#broken;
    if (jsonl === undefined || csv === undefined || !this.#open)
      throw new Error(`the results writer of ${this.dir} is closed`);
    const before = this.#appended;
    let failed = join(this.dir, RUNS_FILE);
    try {
      const jsonlBytes = before.jsonlBytes + writeAll(this.#fs, jsonl, chunk.jsonl);
      failed = join(this.dir, CSV_FILE);
      const csvBytes = before.csvBytes + writeAll(this.#fs, csv, chunk.csv);
      this.#appended = { chunks: before.chunks + 1, runs: before.runs + chunk.runs, jsonlBytes, csvBytes };
      if (this.#mode.kind === 'merge') this.#durable = this.#appended;
    } catch (error) {
      const failure = error instanceof ResultsWriteError ? error : new ResultsWriteError(failed, error);
      if (this.#mode.kind === 'sweep' && !this.#cutBack(before)) this.#broken = failure;
      throw failure;
    }
  }

  /**
   * Every chunk appended so far made durable: both run files synced, then progress.json
   * replaced to say how far they go. Calls made while a sync is in flight share the next
   * one. On failure (a full disk) the run files are cut back to the last synced chunk and
   * every sync asked for since rejects with the error: those chunks are not stored, and may
   * be appended again once there is room.
   */
  sync(): Promise<void> {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const cuts = this.#cuts;
    if (this.#queued === undefined) {
      const start = () => {
        this.#queued = undefined;
        const syncing = this.#syncOnce();
        this.#syncing = syncing;
        return syncing.finally(() => {
          this.#syncing = undefined;
          if (!this.#open) this.#closeRunFiles();
        });
      };
      this.#queued = (this.#syncing ?? Promise.resolve()).then(start, start);
    }
    return this.#queued.then(() => {
      if (this.#cuts !== cuts) throw this.#lastCut;
    });
  }

  /** One sync of what the run files hold now. Stops, leaving the rest to them, if `close` or `abandon` ran meanwhile. */
  async #syncOnce(): Promise<void> {
    const target = this.#appended;
    const jsonl = this.#jsonl;
    const csv = this.#csv;
    if (this.#mode.kind !== 'sweep' || target === this.#durable || jsonl === undefined || csv === undefined) return;
    const closedMeanwhile = () => {
      if (this.#open) return false;
      if (this.#durable.chunks < target.chunks)
        throw this.#broken ?? new Error(`the results writer of ${this.dir} closed before its runs were synced`);
      return true;
    };
    const progressPath = join(this.dir, PROGRESS_FILE);
    let failed = join(this.dir, RUNS_FILE);
    let temp: { path: string; fd: number | undefined } | undefined;
    try {
      await Promise.all([
        fsyncInBackground(this.#fs, jsonl),
        fsyncInBackground(this.#fs, csv).catch((error: unknown) => {
          failed = join(this.dir, CSV_FILE);
          throw error;
        }),
      ]);
      if (closedMeanwhile()) return;
      failed = progressPath;
      // progress.json's own atomic write, its fsync in the background too.
      temp = { path: tempPath(progressPath), fd: undefined };
      temp.fd = this.#fs.openSync(temp.path, 'w');
      writeAll(this.#fs, temp.fd, `${JSON.stringify(this.#progress(target))}\n`);
      await fsyncInBackground(this.#fs, temp.fd);
      const fd = temp.fd;
      temp.fd = undefined;
      this.#fs.closeSync(fd);
      if (closedMeanwhile()) {
        discard(this.#fs, temp.path);
        return;
      }
      this.#fs.renameSync(temp.path, progressPath);
      this.#durable = target;
    } catch (error) {
      if (temp !== undefined) discard(this.#fs, temp.path, temp.fd);
      if (!this.#open) throw error;
      const failure = error instanceof ResultsWriteError ? error : new ResultsWriteError(failed, error);
      if (this.#cutBack(this.#durable)) {
        this.#cuts += 1;
        this.#lastCut = failure;
      } else this.#broken = failure;
      throw failure;
    }
  }

  /** The chunks appended and not yet synced, synced now, in this thread: the last act of `close` and `abandon`. */
  #syncNow(progress: boolean): void {
    const target = this.#appended;
    if (target === this.#durable || this.#jsonl === undefined || this.#csv === undefined) return;
    let failed = join(this.dir, RUNS_FILE);
    try {
      this.#fs.fsyncSync(this.#jsonl);
      failed = join(this.dir, CSV_FILE);
      this.#fs.fsyncSync(this.#csv);
    } catch (error) {
      throw new ResultsWriteError(failed, error);
    }
    if (progress)
      writeFileAtomic(join(this.dir, PROGRESS_FILE), `${JSON.stringify(this.#progress(target))}\n`, this.#fs);
    this.#durable = target;
  }

  #progress(mark: Mark): StoredProgress {
    if (this.#mode.kind !== 'sweep') throw new Error('a merge has no progress');
    return {
      format_version: FORMAT_VERSION,
      spiralbench: VERSION,
      sweep: this.#mode.identity,
      chunks_done: mark.chunks,
      runs_done: mark.runs,
      jsonl_bytes: mark.jsonlBytes,
      csv_bytes: mark.csvBytes,
    };
  }

  /**
   * The run files cut back to `mark`. Both are opened for appending, so the next chunk
   * lands at the cut. False when they cannot be cut: they take no more chunks (a resume
   * cuts them to progress.json's sizes anyway).
   */
  #cutBack(mark: Mark): boolean {
    try {
      this.#fs.truncateSync(join(this.dir, RUNS_FILE), mark.jsonlBytes);
      this.#fs.truncateSync(join(this.dir, CSV_FILE), mark.csvBytes);
      this.#appended = mark;
      return true;
    } catch {
      this.#closeRunFiles();
      return false;
    }
  }

  /**
   * Stop writing. A sweep leaves its run files and progress.json for a resume; a merge
   * removes its temporary files, leaving the folder as it found it. Safe to call twice,
   * and after `close`.
   */
  abandon(): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.#mode.kind === 'merge') {
      discard(this.#fs, this.#mode.runsTemp, this.#jsonl);
      discard(this.#fs, this.#mode.csvTemp, this.#csv);
      this.#jsonl = this.#csv = undefined;
      return;
    }
    try {
      // What was appended and not synced yet is kept if it can be; if not, a resume runs it again.
      if (this.#broken === undefined) this.#syncNow(true);
    } catch {
      // progress.json still says how far the synced files go
    }
    this.#closeRunFiles();
  }

  /** Close the run files and write summary.json and traces.jsonl, each atomically; the summary last. */
  close(summary: StoredSummary, traces: readonly StoredTrace[]): void {
    const tracesText = traces.map((trace) => `${JSON.stringify(trace)}\n`).join('');
    const summaryText = `${JSON.stringify(summary, null, 2)}\n`;
    const fs = this.#fs;
    if (this.#mode.kind === 'sweep') {
      if (this.#broken !== undefined) throw this.#broken;
      // The runs are synced before the summary says the sweep is whole.
      this.#syncNow(false);
      this.#open = false;
      this.#closeRunFiles();
      writeFileAtomic(join(this.dir, TRACES_FILE), tracesText, fs);
      writeFileAtomic(join(this.dir, SUMMARY_FILE), summaryText, fs);
      fs.rmSync(join(this.dir, PROGRESS_FILE), { force: true });
      return;
    }
    const { runsTemp, csvTemp } = this.#mode;
    const temps: string[] = [];
    try {
      if (this.#jsonl !== undefined) fs.fsyncSync(this.#jsonl);
      if (this.#csv !== undefined) fs.fsyncSync(this.#csv);
      temps.push(writeTempFile(join(this.dir, TRACES_FILE), tracesText, fs));
      temps.push(writeTempFile(join(this.dir, SUMMARY_FILE), summaryText, fs));
    } catch (error) {
      for (const temp of temps) discard(fs, temp);
      this.abandon();
      throw error instanceof ResultsWriteError ? error : new ResultsWriteError(join(this.dir, RUNS_FILE), error);
    }
    this.#open = false;
    this.#closeRunFiles();
    // Everything is on disk; only renames are left. The old summary goes first, so the
    // folder never shows an old summary beside new runs.
    fs.rmSync(join(this.dir, SUMMARY_FILE), { force: true });
    fs.rmSync(join(this.dir, PROGRESS_FILE), { force: true });
    fs.renameSync(runsTemp, join(this.dir, RUNS_FILE));
    fs.renameSync(csvTemp, join(this.dir, CSV_FILE));
    fs.renameSync(temps[0]!, join(this.dir, TRACES_FILE));
    fs.renameSync(temps[1]!, join(this.dir, SUMMARY_FILE));
  }

  /** Closes the run files, once no background sync is using them. */
  #closeRunFiles(): void {
    if (this.#syncing !== undefined) return;
    if (this.#jsonl !== undefined) this.#fs.closeSync(this.#jsonl);
    if (this.#csv !== undefined) this.#fs.closeSync(this.#csv);
    this.#jsonl = this.#csv = undefined;
  }
}

/** fsync on libuv's thread pool: the main thread goes on while the disk catches up. */
function fsyncInBackground(fs: ResultsFs, fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fsync(fd, (error) => (error === null ? resolve() : reject(error))));
}

/** A run file emptied (or made) and opened for appending: a write always lands at its end, wherever a cut left it. */
function openEmptyForAppend(fs: ResultsFs, path: string): number {
  fs.closeSync(fs.openSync(path, 'w'));
  return fs.openSync(path, 'a');
}

/**
 * Writes meta.json atomically, stamped with the format version this spiralbench writes
 * (readers refuse a version they do not know).
 */
export function writeMeta(dir: string, meta: Omit<StoredMeta, 'format_version'>, fs: ResultsFs = NODE_FS): void {
  const stamped: StoredMeta = { format_version: FORMAT_VERSION, ...meta };
  writeFileAtomic(join(dir, META_FILE), `${JSON.stringify(stamped, null, 2)}\n`, fs);
}

/**
 * Adds what a whole sweep's runs conclude (`conclusions`, and `run --sensitivity`'s
 * `sensitivity`) to its summary.json, replacing the file atomically: a reader sees the
 * summary with them or without them, never half. Returns the summary as written.
 */
export function extendSummary(
  dir: string,
  summary: StoredSummary,
  added: Pick<StoredSummary, 'conclusions'> | Pick<StoredSummary, 'sensitivity'>,
  fs: ResultsFs = NODE_FS,
): StoredSummary {
  const extended: StoredSummary = { ...summary, ...added };
  writeFileAtomic(join(dir, SUMMARY_FILE), `${JSON.stringify(extended, null, 2)}\n`, fs);
  return extended;
}
