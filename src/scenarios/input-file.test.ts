import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { MAX_INPUT_FILE_BYTES, readInputFile } from './input-file.js';

const dir = mkdtempSync(join(tmpdir(), 'spiralbench-input-'));

function refusal(path: string): string {
  try {
    readInputFile(path);
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
  throw new Error(`${path} was read`);
}

describe('readInputFile', () => {
  it('reads a regular file up to the cap exactly, in UTF-8', () => {
    const path = join(dir, 'at-cap.yaml');
    const text = `é${'x'.repeat(MAX_INPUT_FILE_BYTES - 2)}`;
    writeFileSync(path, text);
    expect(readInputFile(path)).toBe(text);
  });

  it('refuses one byte more, naming the file and the cap', () => {
    const path = join(dir, 'over-cap.yaml');
    writeFileSync(path, 'x'.repeat(MAX_INPUT_FILE_BYTES + 1));
    expect(refusal(path)).toBe(`${path}: a file of at most 4 MiB (4194304 bytes); this one is larger`);
  });

  it('refuses what is not a regular file without reading it: a FIFO, a device, a folder', () => {
    const fifo = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toBe(`${fifo}: a regular file (this is a FIFO)`);
    expect(refusal('/dev/zero')).toBe('/dev/zero: a regular file (this is a character device)');
    expect(refusal(dir)).toBe(`${dir}: a regular file (this is a folder)`);
  });

  it('names a file that is not there', () => {
    expect(refusal(join(dir, 'missing.yaml'))).toBe(`${join(dir, 'missing.yaml')}: file not found or not readable`);
  });
});
