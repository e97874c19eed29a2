import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillingDisk, fullDisk } from './full-disk.test-helpers.js';
import type { StoredSweepIdentity } from './progress-schema.js';
import { claimResultsFolder } from './results-folder.js';
import { readProgress } from './results-reader.js';
import { CSV_HEADER } from './run-csv.js';
import { finishedFolder, fixtureFolder, fixtureRun, fixtureSummary } from './sweep-fixture.test-helpers.js';

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
  it('on a full disk, cuts back a chunk it could not write whole, so the chunk can be appended again once there is room', () => {
    const dir = fixtureFolder({});
    const disk = fillingDisk(100_000);
    const folder = claimResultsFolder(dir, 'sweep', { ...quiet, fs: disk.fs });
    const writer = folder.sweepWriter(IDENTITY);
    writer.append(chunk(1));
    const synced = files(dir);
    for (const room of [10, chunk(2).jsonl.length + 5, chunk(2).jsonl.length + chunk(2).csv.length + 5]) {
      disk.setRoom(room);
      expect(() => writer.append(chunk(2))).toThrow(/could not write .*ENOSPC/);
      expect(files(dir), `room for ${room} bytes`).toEqual(synced);
    }
    disk.setRoom(100_000);
    writer.append(chunk(2));
    folder.release();
    expect(readFileSync(join(dir, 'runs.jsonl'), 'utf8')).toBe(chunk(1).jsonl + chunk(2).jsonl);
    expect(readFileSync(join(dir, 'runs.csv'), 'utf8')).toBe(CSV_HEADER + chunk(1).csv + chunk(2).csv);
    expect(readProgress(dir)).toMatchObject({ chunks_done: 2, runs_done: 2 });
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
