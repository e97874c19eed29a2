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
 * How runs reach the folder. A sweep writes in place, durably: after each chunk both
 * run files are fsynced and progress.json (replaced atomically) records how far they go,
 * so a sweep killed at any moment loses at most the chunks in flight and can be resumed.
 * A merge is staged: everything goes to temporary files renamed into place by `close`,
 * so a merge that fails leaves the folder as it was.
 */
type Mode =
  | { readonly kind: 'sweep'; readonly identity: StoredSweepIdentity }
  | { readonly kind: 'merge'; readonly runsTemp: string; readonly csvTemp: string };

/**
 * The one writer of a results folder's runs.jsonl, runs.csv, summary.json, traces.jsonl
 * and progress.json. Made by a claimed folder (results-folder.ts), which holds its lock.
 * Per chunk it only appends the text it is given: nothing is parsed or checked here.
 */
export class ResultsWriter {
  readonly dir: string;
  readonly #fs: ResultsFs;
  readonly #mode: Mode;
  /** Open file descriptors of the run files; undefined once closed. */
  #jsonl: number | undefined;
  #csv: number | undefined;
  #chunksDone: number;
  #runsDone: number;
  #jsonlBytes: number;
  #csvBytes: number;
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
    this.#chunksDone = resume?.chunks_done ?? 0;
    this.#runsDone = resume?.runs_done ?? 0;
    this.#jsonlBytes = resume?.jsonl_bytes ?? 0;
    this.#csvBytes = resume?.csv_bytes ?? 0;
    const jsonlPath = join(dir, RUNS_FILE);
    const csvPath = join(dir, CSV_FILE);
    if (mode.kind === 'merge') {
      try {
        this.#jsonl = fs.openSync(mode.runsTemp, 'w');
        this.#csv = fs.openSync(mode.csvTemp, 'w');
        this.#csvBytes = writeAll(fs, this.#csv, CSV_HEADER);
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
        this.#csvBytes = writeAll(fs, this.#csv, CSV_HEADER);
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
   * Appends a chunk. A sweep's chunk is all or nothing: if any write fails (a full disk),
   * the run files are cut back to the last chunk progress.json records and the error names
   * the file, so the same chunk can be appended again once there is room.
   */
  append(chunk: RunChunk): void {
    const jsonl = this.#jsonl;
    const csv = this.#csv;
    if (this.#broken !== undefined) throw this.#broken;
    if (jsonl === undefined || csv === undefined) throw new Error(`the results writer of ${this.dir} is closed`);
    if (this.#mode.kind !== 'sweep') {
      this.#jsonlBytes += writeAll(this.#fs, jsonl, chunk.jsonl);
      this.#csvBytes += writeAll(this.#fs, csv, chunk.csv);
      this.#chunksDone += 1;
      this.#runsDone += chunk.runs;
      return;
    }
    let failed = join(this.dir, RUNS_FILE);
    try {
      const jsonlBytes = this.#jsonlBytes + writeAll(this.#fs, jsonl, chunk.jsonl);
      failed = join(this.dir, CSV_FILE);
      const csvBytes = this.#csvBytes + writeAll(this.#fs, csv, chunk.csv);
      // Synced before progress.json says they are there: a crash can only leave less.
      this.#fs.fsyncSync(jsonl);
      this.#fs.fsyncSync(csv);
      const progress: StoredProgress = {
        format_version: FORMAT_VERSION,
        spiralbench: VERSION,
        sweep: this.#mode.identity,
        chunks_done: this.#chunksDone + 1,
        runs_done: this.#runsDone + chunk.runs,
        jsonl_bytes: jsonlBytes,
        csv_bytes: csvBytes,
      };
      failed = join(this.dir, PROGRESS_FILE);
      writeFileAtomic(failed, `${JSON.stringify(progress)}\n`, this.#fs);
      this.#jsonlBytes = jsonlBytes;
      this.#csvBytes = csvBytes;
      this.#chunksDone += 1;
      this.#runsDone += chunk.runs;
    } catch (error) {
      const failure = error instanceof ResultsWriteError ? error : new ResultsWriteError(failed, error);
      if (!this.#cutBack()) this.#broken = failure;
      throw failure;
    }
  }

  /**
   * The run files cut back to what progress.json records. Both are opened for appending,
   * so the next chunk lands at the cut. False when they cannot be cut: they take no more
   * chunks (a resume cuts them to progress.json's sizes anyway).
   */
  #cutBack(): boolean {
    try {
      this.#fs.truncateSync(join(this.dir, RUNS_FILE), this.#jsonlBytes);
      this.#fs.truncateSync(join(this.dir, CSV_FILE), this.#csvBytes);
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
    this.#closeRunFiles();
  }

  /** Close the run files and write summary.json and traces.jsonl, each atomically; the summary last. */
  close(summary: StoredSummary, traces: readonly StoredTrace[]): void {
    const tracesText = traces.map((trace) => `${JSON.stringify(trace)}\n`).join('');
    const summaryText = `${JSON.stringify(summary, null, 2)}\n`;
    const fs = this.#fs;
    if (this.#mode.kind === 'sweep') {
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

  #closeRunFiles(): void {
    if (this.#jsonl !== undefined) this.#fs.closeSync(this.#jsonl);
    if (this.#csv !== undefined) this.#fs.closeSync(this.#csv);
    this.#jsonl = this.#csv = undefined;
  }
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
