import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportTraceServiceRequestSchema } from '../results/otlp-trace.js';
import { allSpans } from '../results/otlp-nesting.test-helpers.js';
import { UserInputError } from '../user-input-error.js';
import { otelFile } from '../cli/otel-file.js';
import { resolveArms } from '../arms/arms.js';
import { clientModel, inProcessModel } from '../run/model-source.js';
import { exportOtel } from './otel-export.js';
import { loadScenarioSource } from '../sweep/scenario-source.js';

const dir = mkdtempSync(join(tmpdir(), 'spiralbench-otel-'));
const spansIn = (path: string) =>
  allSpans(exportTraceServiceRequestSchema.parse(JSON.parse(readFileSync(path, 'utf8'))));

describe('exportOtel', () => {
  it('writes the runs of each shard, so the shards together are the whole sweep', async () => {
    const scenarios = [await loadScenarioSource('lookup-readonly')];
    const options = { scenarios, arms: resolveArms(['none', 'recover']), seeds: 3, model: inProcessModel() };
    const whole = await exportOtel({ ...options, path: join(dir, 'whole.json') });
    expect(whole.runs).toBe(6);
    const a = await exportOtel({ ...options, path: join(dir, 'a.json'), shard: { index: 1, count: 2 } });
    const b = await exportOtel({ ...options, path: join(dir, 'b.json'), shard: { index: 2, count: 2 } });
    expect(a.runs + b.runs).toBe(6);
    expect([...spansIn(join(dir, 'a.json')), ...spansIn(join(dir, 'b.json'))]).toEqual(
      spansIn(join(dir, 'whole.json')),
    );
  });

  it('refuses a real model, whose runs would not replay the same', async () => {
    const model = clientModel({ name: 'anthropic:x', create: () => Promise.reject(new Error('no')) }, 'claude-x');
    await expect(
      exportOtel({ path: join(dir, 'real.json'), scenarios: [], arms: [], seeds: 1, model }),
    ).rejects.toThrow(/--otel: the simulated model/);
  });
});

describe('otelFile (the --otel flag)', () => {
  it('takes a file in an existing folder, as an absolute path', () => {
    expect(otelFile(join(dir, 'x.json'))).toBe(join(dir, 'x.json'));
  });
  it('refuses an empty path, a folder, and a file in a missing folder, naming --otel', () => {
    for (const bad of ['', dir, join(dir, 'missing', 'x.json')]) {
      expect(() => otelFile(bad)).toThrow(UserInputError);
      expect(() => otelFile(bad)).toThrow(/^--otel: /);
    }
  });
});
