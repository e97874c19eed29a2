import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fullDisk } from './full-disk.test-helpers.js';
import type { StoredSweepIdentity } from './progress-schema.js';
import { claimResultsFolder } from './results-folder.js';
import { readProgress } from './results-reader.js';
import { CSV_HEADER } from './run-csv.js';
import { finishedFolder, fixtureRun, fixtureSummary } from './sweep-fixture.test-helpers.js';

const IDENTITY: StoredSweepIdentity = {
  scenarios: [{ id: 's1', hash: 'h' }],
  arms: [{ name: 'none', guards: [] }],
  seeds: { base: 1, count: 2 },
  sweep_seed: 0,
  model: 'simulated',
  shard: { index: 1, count: 1 },
  chunk_size: 1,
};
const chunk = (seed: number) => ({
  runs: 1,
  jsonl: `${JSON.stringify(fixtureRun({ seed }))}\n`,
  csv: `0,s1,none,${seed}\n`,
});
const files = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
const quiet = { note: () => {} };

describe('a sweep writer', () => {
  it('records after each chunk how far the synced run files go, and drops progress.json when the summary is written', () => {
    const dir = finishedFolder([fixtureRun()]);
    const folder = claimResultsFolder(dir, 'discard', quiet);
    const writer = folder.sweepWriter(IDENTITY);
    expect(existsSync(join(dir, 'summary.json'))).toBe(false);
    writer.append(chunk(1));
    expect(readProgress(dir)).toMatchObject({
      format_version: 1,
      chunks_done: 1,
      runs_done: 1,
      jsonl_bytes: chunk(1).jsonl.length,
      csv_bytes: CSV_HEADER.length + chunk(1).csv.length,
    });
    writer.close(fixtureSummary([{ scenario: 's1', arm: 'none', runs: 1 }]), []);
    folder.release();
    expect(readdirSync(dir).sort()).toEqual(['runs.csv', 'runs.jsonl', 'summary.json', 'traces.jsonl']);
  });

  it('abandoned (a failure mid-sweep), leaves the run files and progress.json for a resume, and gives up the lock', () => {
    const dir = finishedFolder([fixtureRun()]);
    const folder = claimResultsFolder(dir, 'discard', quiet);
    folder.sweepWriter(IDENTITY).append(chunk(1));
    folder.release();
    expect(readdirSync(dir).sort()).toEqual(['progress.json', 'runs.csv', 'runs.jsonl']);
    expect(claimResultsFolder(dir, 'resume', quiet).progress?.runs_done).toBe(1);
  });
});

describe('a merge writer', () => {
  it('changes nothing in the folder until it closes, then replaces the results whole', () => {
    const dir = finishedFolder([fixtureRun()]);
    const before = files(dir);
    const folder = claimResultsFolder(dir, 'merge-discard', quiet);
    const writer = folder.mergeWriter();
    writer.append(chunk(1));
    writer.append(chunk(2));
    const during = files(dir);
    delete during['spiralbench.lock'];
    expect(Object.keys(during).filter((name) => !name.includes('.tmp-'))).toEqual(Object.keys(before));
    writer.close(fixtureSummary([{ scenario: 's1', arm: 'none', runs: 2 }]), []);
    folder.release();
    expect(readFileSync(join(dir, 'runs.jsonl'), 'utf8')).toBe(chunk(1).jsonl + chunk(2).jsonl);
    expect(readdirSync(dir).sort()).toEqual(['runs.csv', 'runs.jsonl', 'summary.json', 'traces.jsonl']);
  });

  it.each([
    ['appending runs', 100],
    ['writing the summary', 2400],
  ])('on a full disk while %s, leaves the folder as it was: no empty file, no temporary file', (_when, room) => {
    const dir = finishedFolder([fixtureRun()]);
    const before = files(dir);
    const folder = claimResultsFolder(dir, 'merge-discard', { ...quiet, fs: fullDisk(room) });
    expect(() => {
      const writer = folder.mergeWriter();
      writer.append(chunk(1));
      writer.append(chunk(2));
      writer.close(fixtureSummary([{ scenario: 's1', arm: 'none', runs: 2 }]), []);
    }).toThrow(/ENOSPC/);
    folder.release();
    expect(files(dir)).toEqual(before);
  });
});
