import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { otelFile } from './otel-file.js';

const dir = () => mkdtempSync(join(tmpdir(), 'spiralbench-otel-file-'));

function refusal(path: string): string {
  try {
    return `taken ${otelFile(path)}`;
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
}

describe('otelFile', () => {
  it('takes a new path and a regular file', () => {
    const folder = dir();
    writeFileSync(join(folder, 'old.json'), '{}');
    expect(refusal(join(folder, 'new.json'))).toBe(`taken ${join(folder, 'new.json')}`);
    expect(refusal(join(folder, 'old.json'))).toBe(`taken ${join(folder, 'old.json')}`);
  });

  it('refuses a symbolic link (to a file or to nothing), a FIFO and a device: each would be replaced by a file', () => {
    const folder = dir();
    writeFileSync(join(folder, 'target.json'), '{}');
    symlinkSync(join(folder, 'target.json'), join(folder, 'link.json'));
    symlinkSync(join(folder, 'nowhere.json'), join(folder, 'dangling.json'));
    execFileSync('mkfifo', [join(folder, 'fifo')]);
    expect(refusal(join(folder, 'link.json'))).toBe(
      `--otel: a new path or a regular file; ${join(folder, 'link.json')} is a symbolic link, which writing the spans would replace`,
    );
    expect(refusal(join(folder, 'dangling.json'))).toMatch(/dangling\.json is a symbolic link/);
    expect(refusal(join(folder, 'fifo'))).toMatch(
      /fifo is a FIFO \(named pipe\), which writing the spans would replace$/,
    );
    expect(refusal('/dev/null')).toBe(
      '--otel: a new path or a regular file; /dev/null is a device, which writing the spans would replace',
    );
  });
});
