import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { UserInputError } from '../user-input-error.js';
import { join } from 'node:path';
import type { ChunkResult } from './chunk-runner.js';
import { CSV_HEADER } from './run-csv.js';

/** Write `text` to `path` atomically: a reader sees the old file or the new one, never half. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/**
 * Appends finished chunks to runs.jsonl and runs.csv, in order, as they complete, so a
 * sweep's results are on disk as it goes; summary.json is written atomically at the end.
 */
export class ResultsWriter {
  readonly dir: string;
  readonly #jsonl: number;
  readonly #csv: number;

  constructor(dir: string) {
    this.dir = dir;
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw UserInputError.single('--out', '', `a folder; ${dir} is a file`);
    mkdirSync(dir, { recursive: true });
    // A summary only ever describes finished runs: an interrupted sweep leaves none behind,
    // so merge and compare cannot take its partial runs for a whole sweep.
    for (const stale of ['summary.json', 'traces.jsonl']) rmSync(join(dir, stale), { force: true });
    this.#jsonl = openSync(join(dir, 'runs.jsonl'), 'w');
    this.#csv = openSync(join(dir, 'runs.csv'), 'w');
    writeSync(this.#csv, CSV_HEADER);
  }

  append(chunk: ChunkResult): void {
    writeSync(this.#jsonl, chunk.jsonl);
    writeSync(this.#csv, chunk.csv);
  }

  /** Close the run files and write summary.json and traces.jsonl atomically. */
  close(summary: unknown, traces: readonly unknown[]): void {
    closeSync(this.#jsonl);
    closeSync(this.#csv);
    writeFileAtomic(join(this.dir, 'traces.jsonl'), traces.map((trace) => `${JSON.stringify(trace)}\n`).join(''));
    writeFileAtomic(join(this.dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
