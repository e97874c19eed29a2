import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { UserInputError } from '../user-input-error.js';
import { VERSION } from '../version.js';
import type { ChunkResult } from './chunk-runner.js';
import { CSV_HEADER } from './run-csv.js';
import { PROGRESS_FILE, type SweepIdentity, type SweepProgress } from './sweep-progress.js';

/** Write `text` to `path` atomically: a reader sees the old file or the new one, never half. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/**
 * Appends finished chunks to runs.jsonl and runs.csv, in order, as they complete. After
 * each chunk both files are fsynced and progress.json (replaced atomically) records how far they go,
 * so a sweep killed at any moment loses at most the chunks in flight and can be resumed
 * (`--resume`). summary.json and traces.jsonl are written atomically at the end, when
 * progress.json goes away.
 */
export class ResultsWriter {
  readonly dir: string;
  /** The sweep being written, for progress.json; none for a merge, which is not resumed. */
  readonly #identity: SweepIdentity | undefined;
  readonly #jsonl: number;
  readonly #csv: number;
  #chunksDone: number;
  #runsDone: number;
  #jsonlBytes: number;
  #csvBytes: number;

  /** `resume`: continue the run files an interrupted sweep left, cut back to what it synced. */
  constructor(dir: string, identity?: SweepIdentity, resume?: SweepProgress) {
    this.dir = dir;
    this.#identity = identity;
    if (existsSync(dir) && !statSync(dir).isDirectory())
      throw UserInputError.single('--out', '', `a folder; ${dir} is a file`);
    mkdirSync(dir, { recursive: true });
    // A summary only ever describes finished runs: an interrupted sweep leaves none behind,
    // so merge and compare cannot take its partial runs for a whole sweep.
    for (const stale of ['summary.json', 'traces.jsonl']) rmSync(join(dir, stale), { force: true });
    const jsonlPath = join(dir, 'runs.jsonl');
    const csvPath = join(dir, 'runs.csv');
    if (resume === undefined) {
      // A fresh sweep: an older sweep's progress no longer describes these files.
      rmSync(join(dir, PROGRESS_FILE), { force: true });
      this.#chunksDone = this.#runsDone = 0;
      this.#jsonl = openSync(jsonlPath, 'w');
      this.#csv = openSync(csvPath, 'w');
      this.#jsonlBytes = 0;
      this.#csvBytes = writeSync(this.#csv, CSV_HEADER);
    } else {
      // Whatever a crash left past the synced sizes is half a chunk: cut it off.
      truncateSync(jsonlPath, resume.jsonl_bytes);
      truncateSync(csvPath, resume.csv_bytes);
      this.#jsonl = openSync(jsonlPath, 'a');
      this.#csv = openSync(csvPath, 'a');
      ({
        chunks_done: this.#chunksDone,
        runs_done: this.#runsDone,
        jsonl_bytes: this.#jsonlBytes,
        csv_bytes: this.#csvBytes,
      } = resume);
    }
  }

  append(chunk: ChunkResult): void {
    this.#jsonlBytes += writeSync(this.#jsonl, chunk.jsonl);
    this.#csvBytes += writeSync(this.#csv, chunk.csv);
    this.#chunksDone += 1;
    this.#runsDone += chunk.runs;
    if (this.#identity === undefined) return;
    // Synced before progress.json says they are there: a crash can only leave less.
    fsyncSync(this.#jsonl);
    fsyncSync(this.#csv);
    const progress: SweepProgress = {
      spiralbench: VERSION,
      sweep: this.#identity,
      chunks_done: this.#chunksDone,
      runs_done: this.#runsDone,
      jsonl_bytes: this.#jsonlBytes,
      csv_bytes: this.#csvBytes,
    };
    writeFileAtomic(join(this.dir, PROGRESS_FILE), `${JSON.stringify(progress)}\n`);
  }

  /** Stop appending, leaving the run files and progress.json for a resume. */
  abandon(): void {
    closeSync(this.#jsonl);
    closeSync(this.#csv);
  }

  /** Close the run files and write summary.json and traces.jsonl atomically. */
  close(summary: unknown, traces: readonly unknown[]): void {
    closeSync(this.#jsonl);
    closeSync(this.#csv);
    writeFileAtomic(join(this.dir, 'traces.jsonl'), traces.map((trace) => `${JSON.stringify(trace)}\n`).join(''));
    writeFileAtomic(join(this.dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    rmSync(join(this.dir, PROGRESS_FILE), { force: true });
  }
}
