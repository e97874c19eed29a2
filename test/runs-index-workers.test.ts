import { describe, expect, it } from 'vitest';
import { openFinishedSweep } from '../src/results/results-reader.js';
import * as fromSource from '../src/results/runs-index.js';
import { variedFolder } from '../src/results/sweep-fixture.test-helpers.js';

// The build's index splits a big runs.jsonl between worker threads; from source it has no
// worker file and indexes the parts on one thread. Both must give the same index.
const built = (await import(new URL('../dist/results/runs-index.js', import.meta.url).href)) as typeof fromSource;

describe('indexRuns in worker threads (the build)', () => {
  it('gives the index one thread gives, columns, strings and line numbers alike', async () => {
    const sweep = openFinishedSweep(variedFolder(400));
    const one = await fromSource.indexRuns(sweep);
    const bytes: number[] = [];
    const workers = await built.indexRuns(sweep, (progress) => bytes.push(progress.bytes), { parts: 2 });
    expect(workers.rows).toBe(1600);
    expect(workers.strings).toEqual(one.strings);
    expect(workers.columns).toEqual(one.columns);
    expect(bytes.at(-1)).toBe(one.columns.offset[1599]! + one.columns.length[1599]! + 1);
  });

  it('names a bad line in the second worker’s half by its line in the file', async () => {
    const dir = variedFolder(400);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const file = `${dir}/runs.jsonl`;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1400] = '{"sweep_seed":';
    writeFileSync(file, lines.join('\n'));
    await expect(built.indexRuns(openFinishedSweep(dir), undefined, { parts: 2 })).rejects.toThrow(
      /runs\.jsonl:1401: one JSON run record per line/,
    );
  });
});
