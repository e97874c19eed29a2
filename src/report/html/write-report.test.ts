import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishedFolder, fixtureRun, fixtureSummary } from '../../results/sweep-fixture.test-helpers.js';
import { writeReport } from './write-report.js';

/** Bytes left on the simulated disk; undefined: as much as the real one has. */
const disk = vi.hoisted(() => ({ room: undefined as number | undefined }));

// Every write through node:fs (the report's, whichever call it uses) can be made to
// fill the disk: what fits is written, then ENOSPC, as the kernel does.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const take = (length: number): number => {
    if (disk.room === undefined) return length;
    const fits = Math.min(length, disk.room);
    disk.room -= fits;
    return fits;
  };
  const writeSync = (fd: number, data: string | Uint8Array, ...rest: unknown[]): number => {
    if (disk.room === undefined) return (fs.writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
    const offset = typeof data === 'string' ? 0 : ((rest[0] as number | undefined) ?? 0);
    const length = typeof data === 'string' ? bytes.length : ((rest[1] as number | undefined) ?? bytes.length - offset);
    const fits = take(length);
    if (fits > 0) fs.writeSync(fd, bytes, offset, fits);
    if (fits < length) throw full();
    return fits;
  };
  const writeFileSync = (path: string, data: string | Uint8Array, options?: unknown): void => {
    if (disk.room === undefined) {
      fs.writeFileSync(path, data, options as never);
      return;
    }
    const bytes = Buffer.from(data);
    const fits = take(bytes.length);
    fs.writeFileSync(path, bytes.subarray(0, fits));
    if (fits < bytes.length) throw full();
  };
  return { ...fs, default: { ...fs, writeSync, writeFileSync }, writeSync, writeFileSync };
});

afterEach(() => {
  disk.room = undefined;
});

describe('writeReport', () => {
  it.each([
    ['--html', 'report.html', '<p>last good report</p>'],
    ['--markdown', 'summary.md', 'last good summary'],
    ['--csv', 'headline.csv', 'last,good\n'],
  ])(
    'on a full disk (%s) leaves the previous file whole and no temporary file behind',
    async (flag, name, old) => {
      const runs = [fixtureRun({ seed: 1 }), fixtureRun({ seed: 2, verdict: 'failure' })];
      const sweep = finishedFolder(runs, fixtureSummary([{ scenario: 's1', arm: 'none', runs: 2 }]));
      const out = mkdtempSync(join(tmpdir(), 'spiralbench-report-'));
      const path = join(out, name);
      writeFileSync(path, old);
      disk.room = 100;
      await expect(writeReport(sweep, { [flag.slice(2)]: path })).rejects.toThrow(/ENOSPC/);
      disk.room = undefined;
      expect(readFileSync(path, 'utf8')).toBe(old);
      expect(readdirSync(out)).toEqual([name]);
    },
    30_000,
  );
});
