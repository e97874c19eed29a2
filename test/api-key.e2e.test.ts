import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

const KEY = 'sk-ant-api03-FAKE-KEY-for-redaction-test-0123456789';

describe('a real-model run never writes the API key', () => {
  it('keeps the key out of stdout, stderr, results and the report, even when every call fails', () => {
    const out = join(tempDir(), 'real');
    // A closed port on this machine: every call fails at once with a connection error.
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const run = cli(['run', '-s', 'lookup-readonly', '-a', 'none,recover', '-n', '3', '--model', 'claude-sonnet-5-5', '-o', out, '--report', join(out, 'report.html')], env);
    expect(run.status, run.stderr).toBe(0);
    const records = readFileSync(join(out, 'runs.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { outcome: string; model: string });
    expect(records.map((record) => record.outcome)).toEqual(Array(6).fill('failed'));
    expect(records[0]?.model).toBe('anthropic:claude-sonnet-5-5');
    const written = readdirSync(out).map((file) => readFileSync(join(out, file), 'utf8'));
    for (const text of [run.stdout, run.stderr, ...written]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('FAKE-KEY');
    }
  });
});
