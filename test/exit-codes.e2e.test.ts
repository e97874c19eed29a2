import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

describe('exit codes tell the cause apart', () => {
  it('an unexpected error exits 3, not 1 (which means a regression was found)', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const result = cli(['run', '--scenario', 'lookup-readonly', '--seeds', '1', '--out', join(file, 'inside')]);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^spiralbench: unexpected error: ENOTDIR/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help lists every exit code', () => {
    const result = cli(['--help']);
    expect(result.status).toBe(0);
    const listed = [...result.stdout.matchAll(/^ {2}(\d+) {2,}\S/gm)].map((match) => Number(match[1]));
    expect(listed).toEqual([0, 1, 2, 3, 4, 6, 7, 130]);
  });
});
