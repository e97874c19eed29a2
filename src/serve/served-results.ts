import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../results/run-record-schema.js';
import { META_FILE } from '../results/results-files.js';
import { csvRows } from '../results/run-csv.js';
import type { ResultsFolder } from '../results/results-folder.js';
import type { StoredSweepIdentity } from '../results/progress-schema.js';
import type { StoredSummary } from '../results/summary-schema.js';
import type { StoredTrace } from '../results/trace-schema.js';
import { ResultsWriter } from '../results/results-writer.js';

/**
 * A served sweep's results folder. Runs end in whatever order the agent ends them: each
 * is appended durably as it ends (synced, with progress.json saying how far the files
 * go, so a folder left by a crash reads as an unfinished sweep, never as a whole one).
 * When every run has ended, the folder is rewritten in seed order, as a merge writes it
 * (temporary files renamed into place), with its summary and traces: the same bytes
 * whatever order the runs ended in. Nothing in the folder changes before the first run
 * ends: a serve that fails to start, or is stopped before any run ended, leaves it as it was.
 *
 * @example
 * const results = new ServedResults(claimResultsFolder('results/served', 'sweep'), servedSweepIdentity(options));
 * await results.store(record);
 */
export class ServedResults {
  readonly #folder: ResultsFolder;
  readonly #identity: StoredSweepIdentity;
  #writer: ResultsWriter | undefined;

  constructor(folder: ResultsFolder, identity: StoredSweepIdentity) {
    this.#folder = folder;
    this.#identity = identity;
  }

  /** Whether any run has been written: until then the folder is as serve found it. */
  get written(): boolean {
    return this.#writer !== undefined;
  }

  get dir(): string {
    return this.#folder.dir;
  }

  /**
   * One ended run, on disk once this resolves. Runs ending together share one sync (the
   * writer's group commit); a failed sync rejects every one of them, their records cut
   * from the files, to be stored again when their ends are retried.
   */
  async store(record: RunRecord): Promise<void> {
    const writer = this.#open();
    writer.append({ runs: 1, jsonl: `${JSON.stringify(record)}\n`, csv: csvRows([record]) });
    await writer.sync();
  }

  /** The whole sweep, in seed order, with its summary and traces; the folder is then complete. */
  complete(records: readonly RunRecord[], summary: StoredSummary, traces: readonly StoredTrace[]): void {
    this.#writer?.abandon();
    const sorted = [...records].sort((a, b) => a.seed - b.seed);
    const final = ResultsWriter.forMerge(this.#folder.dir);
    let jsonl = '';
    for (const record of sorted) jsonl += `${JSON.stringify(record)}\n`;
    final.append({ runs: sorted.length, jsonl, csv: csvRows(sorted) });
    final.close(summary, traces);
  }

  /**
   * Stop with the sweep unfinished: the ended runs stay on disk, progress.json marks the
   * folder incomplete. False when no run had ended: the folder was left as it was.
   */
  interrupt(): boolean {
    this.#writer?.abandon();
    return this.#writer !== undefined;
  }

  release(): void {
    this.#folder.release();
  }

  /** The sweep's writer, made as the first run ends; the meta.json of the sweep it replaces goes with it. */
  #open(): ResultsWriter {
    if (this.#writer === undefined) {
      this.#writer = this.#folder.sweepWriter(this.#identity);
      rmSync(join(this.#folder.dir, META_FILE), { force: true });
    }
    return this.#writer;
  }
}
