import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';
import { replaceableFile } from './output-file.js';

const REPORT = { what: 'an HTML report', test: (head: string) => head.includes('<!-- ours -->') };
const dir = () => mkdtempSync(join(tmpdir(), 'spiralbench-output-file-'));

function refusal(path: string, rule: Parameters<typeof replaceableFile>[1]): string {
  try {
    return `taken ${replaceableFile(path, rule)}`;
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
}

describe('replaceableFile', () => {
  it('takes a new path, an empty file and a file the command wrote', () => {
    const folder = dir();
    writeFileSync(join(folder, 'empty.html'), '');
    writeFileSync(join(folder, 'old.html'), '<!doctype html><!-- ours -->');
    for (const name of ['new.html', 'empty.html', 'old.html'])
      expect(refusal(join(folder, name), { another: '--html', overwrite: false, ours: REPORT })).toBe(
        `taken ${join(folder, name)}`,
      );
  });

  it('refuses a file it did not write, naming the path and --overwrite, and takes it with --overwrite', () => {
    const path = join(dir(), 'notes.html');
    writeFileSync(path, '<p>my notes</p>');
    expect(refusal(path, { another: '--html', overwrite: false, ours: REPORT })).toBe(
      `${path}: a new path or an HTML report spiralbench wrote; the file there is not one, and this would replace it: add --overwrite to replace it, or choose another --html`,
    );
    expect(refusal(path, { another: '--out', overwrite: false })).toBe(
      `${path}: a new path; a file is already there, which this would replace: add --overwrite to replace it, or choose another --out`,
    );
    expect(refusal(path, { another: '--out', overwrite: true })).toBe(`taken ${path}`);
  });

  it('refuses a symbolic link and a FIFO, even to a file of its own', () => {
    const folder = dir();
    writeFileSync(join(folder, 'report.html'), '<!-- ours -->');
    symlinkSync(join(folder, 'report.html'), join(folder, 'link.html'));
    execFileSync('mkfifo', [join(folder, 'fifo.html')]);
    const rule = { another: '--html', overwrite: false, ours: REPORT };
    expect(refusal(join(folder, 'link.html'), rule)).toMatch(
      /link\.html: a new path or a regular file; this is a symbolic link/,
    );
    expect(refusal(join(folder, 'fifo.html'), rule)).toMatch(
      /fifo\.html: a new path or a regular file; this is a FIFO/,
    );
  });

  it("refuses a path inside spiralbench's bundled scenarios unless --overwrite, however it is reached", () => {
    const bundled = join(SCENARIOS_DIR, 'ensembles', 'default.yaml');
    expect(refusal(bundled, { another: '--out', overwrite: false })).toMatch(
      /default\.yaml: a path outside spiralbench's bundled scenarios .*: add --overwrite if that is what you mean, or choose another --out$/,
    );
    expect(refusal(join(SCENARIOS_DIR, 'ensembles', 'new.yaml'), { another: '--out', overwrite: false })).toMatch(
      /bundled scenarios/,
    );
    const folder = dir();
    symlinkSync(join(SCENARIOS_DIR, 'ensembles'), join(folder, 'ensembles'));
    expect(refusal(join(folder, 'ensembles', 'new.yaml'), { another: '--out', overwrite: false })).toMatch(
      /bundled scenarios/,
    );
    expect(refusal(bundled, { another: '--out', overwrite: true })).toBe(`taken ${bundled}`);
  });
});
