import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

const FILES = ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'];
const SWEEP = ['run', '--scenario', 'fetch-transform-write', '--arms', 'none,article', '--seeds', '300'];

function files(dir: string): string[] {
  return FILES.map((file) => readFileSync(join(dir, file), 'utf8'));
}

describe('a sweep is the same bytes whatever runs it', () => {
  const reference = tempDir();
  const first = cli([...SWEEP, '--workers', '1', '--out', reference]);

  it.each([2, 4])('with --workers %i as with --workers 1', (workers) => {
    expect(first.status, first.stderr).toBe(0);
    const out = tempDir();
    const result = cli([...SWEEP, '--workers', String(workers), '--out', out]);
    expect(result.status, result.stderr).toBe(0);
    // Four chunks of work (two cells of 300 runs, 250 a chunk): every thread asked for ran.
    expect(result.stderr).toContain(`runs/s, ${workers} worker(s))`);
    expect(files(out)).toEqual(files(reference));
  });

  it('starts no more threads than there are chunks to run, and says how many ran', () => {
    const out = tempDir();
    const result = cli(['run', '-s', 'lookup-readonly', '-a', 'none', '-n', '5', '-w', '4', '-o', out]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('runs/s, 1 worker(s))');
    expect(JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')).workers).toBe(1);
  });

  it('sharded 3 ways and merged (in any order) as unsharded', () => {
    const shards = [1, 2, 3].map((index) => {
      const out = tempDir();
      const result = cli([...SWEEP, '--workers', '2', '--shard', `${index}/3`, '--out', out]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`shard ${index}/3`);
      return out;
    });
    const merged = tempDir();
    const result = cli(['merge', shards[2]!, shards[0]!, shards[1]!, '--out', merged]);
    expect(result.status, result.stderr).toBe(0);
    expect(files(merged)).toEqual(files(reference));
  });

  it('saves timelines of the selected runs that are those very runs', () => {
    const records = new Map(
      readFileSync(join(reference, 'runs.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const record = JSON.parse(line) as { arm: string; seed: number };
          return [`${record.arm}/${record.seed}`, record];
        }),
    );
    const traces = readFileSync(join(reference, 'traces.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { arm: string; seed: number; record: unknown; reasons: string[]; events: unknown[] },
      );
    expect(traces.filter((trace) => trace.reasons.includes('worst_tool_calls'))).toHaveLength(6);
    for (const trace of traces) {
      expect(trace.record).toEqual(records.get(`${trace.arm}/${trace.seed}`));
      expect(trace.events.length).toBeGreaterThan(0);
    }
  });

  it('merge refuses an incomplete set of shards and shards of different sweeps', () => {
    const one = tempDir();
    const other = tempDir();
    cli([...SWEEP, '--shard', '1/2', '--out', one]);
    cli([
      'run',
      '--scenario',
      'fetch-transform-write',
      '--arms',
      'none',
      '--seeds',
      '300',
      '--shard',
      '2/2',
      '--out',
      other,
    ]);
    const missing = cli(['merge', one, '--out', tempDir()]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/every shard 1\.\.2 exactly once; got 1/);
    const mixed = cli(['merge', one, other, '--out', tempDir()]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(/a shard of the same sweep/);
  });
});
