import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileUnreadable } from '../results/line-reader.js';
import { finishedFolder, fixtureRun } from '../results/sweep-fixture.test-helpers.js';
import { findSweeps, OpenedSweeps, type ReadableSweep } from './opened-sweeps.js';

const settled = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    () => undefined,
  );

/** A folder of ten runs, found as the viewer finds it, and its runs.jsonl's text. */
function opened() {
  const dir = finishedFolder(Array.from({ length: 10 }, (_, i) => fixtureRun({ seed: i + 1 })));
  const file = join(dir, 'runs.jsonl');
  const [entry] = findSweeps([dir]) as [ReadableSweep];
  return { entry, file, text: readFileSync(file, 'utf8'), sweeps: new OpenedSweeps(new AbortController().signal) };
}

describe('OpenedSweeps: a failed index', () => {
  it('failed on what the file holds: said at every asking, not read again, until the file changes', async () => {
    const { entry, file, text, sweeps } = opened();
    writeFileSync(file, text.replace('"seed":4', '"seed":"four"'));
    await settled(sweeps.open(entry).table);
    for (let asking = 0; asking < 3; asking++) expect(() => sweeps.open(entry)).toThrow(/runs\.jsonl:4: seed/);
    writeFileSync(file, text);
    expect((await sweeps.open(entry).table).size).toBe(10);
  });

  it('the system would not read the file: said once, then read again at the next asking', async () => {
    const { entry, file, text, sweeps } = opened();
    rmSync(file);
    mkdirSync(file);
    await settled(sweeps.open(entry).table);
    expect(() => sweeps.open(entry)).toThrow(FileUnreadable);
    // Mended without a change the file's state would show (as a chmod is): read afresh anyway.
    rmSync(file, { recursive: true });
    writeFileSync(file, text);
    const again = sweeps.open(entry);
    expect(again.failed).toBeUndefined();
    expect((await again.table).size).toBe(10);
  });
});
