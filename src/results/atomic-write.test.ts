import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { fullDisk } from './full-disk.test-helpers.js';
import { ResultsWriteError, type ResultsFs } from './results-fs.js';

describe('writeFileAtomic', () => {
  it('replaces the file whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-atomic-'));
    const path = join(dir, 'summary.json');
    writeFileSync(path, 'old');
    writeFileAtomic(path, 'new text');
    expect(readFileSync(path, 'utf8')).toBe('new text');
    expect(readdirSync(dir)).toEqual(['summary.json']);
  });

  it('on a full disk (ENOSPC half-way) keeps the old file and leaves no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-atomic-'));
    const path = join(dir, 'report.html');
    writeFileSync(path, '<p>the good report</p>');
    let error: unknown;
    try {
      writeFileAtomic(path, 'x'.repeat(10_000), fullDisk(4096));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ResultsWriteError);
    expect((error as Error).message).toBe(
      `could not write ${path} (ENOSPC: no space left on device, write); what was there before is unchanged`,
    );
    expect(readFileSync(path, 'utf8')).toBe('<p>the good report</p>');
    expect(readdirSync(dir)).toEqual(['report.html']);
  });

  it('leaves no temporary file when the rename fails either', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-atomic-'));
    const failingRename: ResultsFs = {
      ...fs,
      renameSync: () => {
        throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
      },
    };
    expect(() => writeFileAtomic(join(dir, 'meta.json'), '{}', failingRename)).toThrow(/could not write .*meta\.json/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
