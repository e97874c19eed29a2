import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchEntry } from '../model/batch/batching-model.js';

/** The file, in a results folder, of the message batches a `run --batch` sweep has sent (a fresh sweep's writer removes it). */
export const BATCH_JOURNAL_FILE = 'batches.jsonl';

export type { BatchEntry };

/**
 * The batches recorded in `dir`, oldest first. A last line cut short by a crash is left
 * out: its batch was sent, but the sweep had not yet waited on it, so its requests are
 * sent again (the one case where a request can go twice: a crash between the API's
 * answer and the write of its id).
 */
export function readBatchJournal(dir: string): BatchEntry[] {
  const path = join(dir, BATCH_JOURNAL_FILE);
  if (!existsSync(path)) return [];
  const entries: BatchEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      const entry = JSON.parse(line) as Partial<BatchEntry>;
      if (typeof entry.batch_id === 'string' && Array.isArray(entry.custom_ids))
        entries.push({ batch_id: entry.batch_id, custom_ids: entry.custom_ids.map(String) });
    } catch {
      // a torn last line
    }
  }
  return entries;
}

/** Records a batch as sent, on disk before the sweep waits on it. */
export function appendBatchJournal(dir: string, entry: BatchEntry): void {
  const fd = openSync(join(dir, BATCH_JOURNAL_FILE), 'a');
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
