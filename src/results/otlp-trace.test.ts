import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { OtlpTraceWriter } from './otlp-trace.js';

describe('OtlpTraceWriter', () => {
  it('writes its file whole at close, replacing a regular file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-otlp-'));
    const path = join(dir, 'spans.json');
    writeFileSync(path, 'old');
    const writer = new OtlpTraceWriter(path, []);
    expect(writer.close()).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveProperty('resourceSpans');
    expect(readdirSync(dir)).toEqual(['spans.json']);
  });

  it('refuses at close a symbolic link put at its path since it opened, leaving the link and its target', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-otlp-'));
    const path = join(dir, 'spans.json');
    const writer = new OtlpTraceWriter(path, []);
    writeFileSync(join(dir, 'precious'), 'keep me');
    symlinkSync(join(dir, 'precious'), path);
    expect(() => writer.close()).toThrow(UserInputError);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'precious'), 'utf8')).toBe('keep me');
    expect(readdirSync(dir).sort()).toEqual(['precious', 'spans.json']);
    expect(existsSync(`${path}.tmp-${process.pid}`)).toBe(false);
  });
});
