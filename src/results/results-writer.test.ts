import * as fs from 'node:fs';
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

/** Resolves once the writer's first background fsync has been asked for. */
async function inFlight(fsyncs: readonly number[]): Promise<void> {
  while (fsyncs.length === 0) await new Promise(setImmediate);
}

describe('a sweep writer', () => {
  it('records, once a chunk is synced, how far the run files go, and drops progress.json when the summary is written', async () => {
    const dir = finishedFolder([fixtureRun()]);
    const folder = claimResultsFolder(dir, 'discard', quiet);
    const writer = folder.sweepWriter(IDENTITY);
    expect(existsSync(join(dir, 'summary.json'))).toBe(false);
    writer.append(chunk(1));
    // Appended, not yet synced: progress.json does not count it.
    expect(readProgress(dir)).toBeNull();
    await writer.sync();
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

  it('syncs chunks appended while a sync is in flight with the next one, and every caller hears when theirs are on disk', async () => {
    const dir = fixtureFolder({});
    const fsyncs: number[] = [];
    const counting = { ...fs, fsync: ((fd, done) => (fsyncs.push(fd), fs.fsync(fd, done))) as typeof fs.fsync };
    const folder = claimResultsFolder(dir, 'sweep', { ...quiet, fs: counting });
    const writer = folder.sweepWriter(IDENTITY);
    writer.append(chunk(1));
    const first = writer.sync();
    await inFlight(fsyncs);
    const synced: number[] = [];
    const later = [2, 3, 4].map((seed) => {
      writer.append(chunk(seed));
      return writer.sync().then(() => synced.push(readProgress(dir)?.chunks_done ?? 0));
    });
    await first;
    expect(readProgress(dir)?.chunks_done).toBe(1);
    await Promise.all(later);
    expect(synced).toEqual([4, 4, 4]);
    // Two syncs, each of both run files and progress.json: not one per chunk.
    expect(fsyncs).toHaveLength(6);
    folder.release();
  });

  it('abandoned (a failure mid-sweep), syncs what it appended, leaves the run files and progress.json for a resume, and gives up the lock', () => {
    const dir = finishedFolder([fixtureRun()]);
    const folder = claimResultsFolder(dir, 'discard', quiet);
    folder.sweepWriter(IDENTITY).append(chunk(1));
    folder.release();
    expect(readdirSync(dir).sort()).toEqual(['progress.json', 'runs.csv', 'runs.jsonl']);
    expect(claimResultsFolder(dir, 'resume', quiet).progress?.runs_done).toBe(1);
  });

  it('on a full disk, cuts back a chunk it could not write whole or sync, so the chunk can be appended again once there is room', async () => {
    const dir = fixtureFolder({});
    const disk = fillingDisk(100_000);
    const folder = claimResultsFolder(dir, 'sweep', { ...quiet, fs: disk.fs });
    const writer = folder.sweepWriter(IDENTITY);
    writer.append(chunk(1));
    await writer.sync();
    const synced = files(dir);
    for (const room of [10, chunk(2).jsonl.length + 5]) {
      disk.setRoom(room);
      expect(() => writer.append(chunk(2))).toThrow(/could not write .*ENOSPC/);
      expect(files(dir), `room for ${room} bytes`).toEqual(synced);
    }
    // Room for the runs, none for progress.json: the sync fails, and the chunk is cut back.
    disk.setRoom(chunk(2).jsonl.length + chunk(2).csv.length + 5);
    writer.append(chunk(2));
    await expect(writer.sync()).rejects.toThrow(/could not write .*progress\.json.*ENOSPC/);
    expect(files(dir)).toEqual(synced);
    disk.setRoom(100_000);
    writer.append(chunk(2));
    await writer.sync();
    folder.release();
    expect(readFileSync(join(dir, 'runs.jsonl'), 'utf8')).toBe(chunk(1).jsonl + chunk(2).jsonl);
    expect(readFileSync(join(dir, 'runs.csv'), 'utf8')).toBe(CSV_HEADER + chunk(1).csv + chunk(2).csv);
    expect(readProgress(dir)).toMatchObject({ chunks_done: 2, runs_done: 2 });
  });

  it('rejects a sync asked for before a failed one cut the files back, though nothing is left to sync', async () => {
    const dir = fixtureFolder({});
    const disk = fillingDisk(100_000);
    const fsyncs: number[] = [];
    const counting = { ...disk.fs, fsync: ((fd, done) => (fsyncs.push(fd), fs.fsync(fd, done))) as typeof fs.fsync };
    const folder = claimResultsFolder(dir, 'sweep', { ...quiet, fs: counting });
    const writer = folder.sweepWriter(IDENTITY);
    writer.append(chunk(1));
    const first = writer.sync();
    await inFlight(fsyncs);
    writer.append(chunk(2));
    const second = writer.sync();
    disk.setRoom(0); // the first sync's progress.json cannot be written: both chunks are cut
    await expect(first).rejects.toThrow(/ENOSPC/);
    await expect(second).rejects.toThrow(/ENOSPC/);
    folder.release();
    expect(readProgress(dir)).toBeNull();
    expect(readFileSync(join(dir, 'runs.jsonl'), 'utf8')).toBe('');
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
