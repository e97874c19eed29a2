import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

describe('exit codes tell the cause apart', () => {
  it('an unexpected error exits 3, not 1 (which means a regression was found)', () => {
    // A link to itself: no folder can be made through it, for no reason the user chose.
    const loop = join(tempDir(), 'loop');
    symlinkSync(loop, loop);
    const result = cli(['run', '--scenario', 'lookup-readonly', '--seeds', '1', '--out', join(loop, 'inside')]);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^spiralbench: unexpected error: ELOOP/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a path that cannot be what it must be (a file where a folder is meant) is bad input: exit 2, naming it', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const result = cli(['run', '--scenario', 'lookup-readonly', '--seeds', '1', '--out', join(file, 'inside')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `error: ${join(file, 'inside')}: a path whose parts are folders; one of them is a file (ENOTDIR)\n`,
    );
  });

  // /dev/full answers every write with ENOSPC, as a full disk does: a results file linked to
  // it fills the disk for this sweep alone, with no root and no small file system to mount.
  it.skipIf(!existsSync('/dev/full'))(
    'a full disk exits 74, naming the file, keeping what was written and giving the --resume command',
    () => {
      const out = join(tempDir(), 'out');
      mkdirSync(out);
      symlinkSync('/dev/full', join(out, 'runs.jsonl'));
      const result = cli(['run', '--scenario', 'lookup-readonly', '--seeds', '3', '-w', '1', '--out', out]);
      expect(result.status, result.stderr).toBe(74);
      expect(result.stderr).toMatch(
        new RegExp(
          `^spiralbench: disk full: could not write ${join(out, 'runs.jsonl')} \\(ENOSPC: no space left on device, write\\); what was there before is unchanged\\. The runs written before are kept in ${out}: free space, then resume with: spiralbench run .*--resume\n$`,
        ),
      );
    },
  );

  it('--help lists every exit code', () => {
    const result = cli(['--help']);
    expect(result.status).toBe(0);
    const listed = [...result.stdout.matchAll(/^ {2}(\d+) {2,}\S/gm)].map((match) => Number(match[1]));
    expect(listed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 74, 130]);
  });
});
