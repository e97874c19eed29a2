import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allSpans, nestingProblems } from '../src/results/otlp-nesting.test-helpers.js';
import { exportTraceServiceRequestSchema } from '../src/results/otlp-trace.js';
import { cli, tempDir } from './cli-helpers.js';

const sweep = ['run', '-s', 'fetch-transform-write', '-a', 'none,article', '-n', '5', '--json'];

describe('run --otel', () => {
  it('writes the 10 runs as nested OTLP/JSON spans, the same bytes for 1 and 2 workers', () => {
    const dir = tempDir();
    const one = cli([...sweep, '-o', join(dir, 'w1'), '--otel', join(dir, 'w1.json'), '-w', '1']);
    expect(one.status, one.stderr).toBe(0);
    const two = cli([...sweep, '-o', join(dir, 'w2'), '--otel', join(dir, 'w2.json'), '-w', '2']);
    expect(two.status, two.stderr).toBe(0);
    const text = readFileSync(join(dir, 'w1.json'), 'utf8');
    expect(readFileSync(join(dir, 'w2.json'), 'utf8')).toBe(text);
    // One request on one line: a JSON document, and the line format of the Collector's otlpjsonfile receiver.
    expect(text.indexOf('\n')).toBe(text.length - 1);
    const request = exportTraceServiceRequestSchema.parse(JSON.parse(text));
    expect(nestingProblems(request)).toEqual([]);
    const spans = allSpans(request);
    const runs = spans.filter((span) => span.name.startsWith('invoke_agent '));
    expect(runs).toHaveLength(10);
    expect(new Set(runs.map((span) => span.traceId)).size).toBe(10);
    expect(spans.some((span) => span.name === 'chat simulated')).toBe(true);
    expect(spans.some((span) => span.name.startsWith('execute_tool '))).toBe(true);
    expect(text).not.toContain('sk-');
    // The sweep's own files are those of a sweep without --otel.
    const plain = cli([...sweep, '-o', join(dir, 'plain'), '-w', '1']);
    expect(plain.status, plain.stderr).toBe(0);
    for (const file of ['runs.jsonl', 'summary.json', 'traces.jsonl'])
      expect(readFileSync(join(dir, 'w1', file), 'utf8')).toBe(readFileSync(join(dir, 'plain', file), 'utf8'));
  });

  it('refuses a file in a missing folder before the sweep starts (exit 2)', () => {
    const dir = tempDir();
    const result = cli([...sweep, '-o', join(dir, 'out'), '--otel', join(dir, 'nope', 'trace.json')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`--otel: a file in an existing folder; there is no folder ${join(dir, 'nope')}`);
    expect(existsSync(join(dir, 'out', 'runs.jsonl'))).toBe(false);
  });

  it('refuses a symbolic link and a FIFO before the sweep starts (exit 2), leaving both as they were', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'precious'), 'keep me');
    symlinkSync(join(dir, 'precious'), join(dir, 'link.json'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    for (const [name, kind] of [
      ['link.json', 'a symbolic link'],
      ['fifo', 'a FIFO (named pipe)'],
    ] as const) {
      const result = cli([...sweep, '-o', join(dir, `out-${name}`), '--otel', join(dir, name)]);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(
        `error: --otel: a new path or a regular file; ${join(dir, name)} is ${kind}, which writing the spans would replace\n`,
      );
      expect(existsSync(join(dir, `out-${name}`))).toBe(false);
    }
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, 'fifo')).isFIFO()).toBe(true);
    expect(readFileSync(join(dir, 'precious'), 'utf8')).toBe('keep me');
  });

  it('is listed in run --help', () => {
    expect(cli(['run', '--help']).stdout.replace(/\s+/g, ' ')).toContain('--otel <file> then write every run');
  });
});
