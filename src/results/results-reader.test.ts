import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openFinishedSweep,
  readInterruptedRuns,
  readMeta,
  readRuns,
  readTraces,
  type FinishedSweep,
} from './results-reader.js';
import { finishedFolder, fixtureFolder, fixtureRun, fixtureSummary, problem } from './sweep-fixture.test-helpers.js';
import type { StoredRun } from './run-record-schema.js';

const runs = (count: number, fields: Partial<Record<keyof StoredRun, unknown>> = {}) =>
  Array.from({ length: count }, (_, i) => fixtureRun({ seed: i + 1, ...fields }));

async function readAll(sweep: FinishedSweep): Promise<StoredRun[]> {
  const read: StoredRun[] = [];
  await readRuns(sweep, (run) => read.push(run));
  return read;
}

describe('openFinishedSweep', () => {
  it('opens a folder, or the runs.jsonl or summary.json in one', async () => {
    const dir = finishedFolder(runs(3));
    for (const path of [dir, join(dir, 'runs.jsonl'), join(dir, 'summary.json')]) {
      const sweep = openFinishedSweep(path);
      expect(sweep).toMatchObject({ dir, runsFile: join(dir, 'runs.jsonl'), meta: undefined });
      expect(await readAll(sweep)).toHaveLength(3);
    }
  });

  it.each([
    [
      'nothing there',
      (dir: string) => join(dir, 'nope'),
      /nope: a sweep folder holding runs\.jsonl .*; nothing is there$/,
    ],
    [
      'an interrupted sweep',
      (dir: string) => fixtureFolder({ 'progress.json': JSON.stringify({ runs_done: 250 }) }, join(dir, 'stopped')),
      /^[^:]*stopped: this sweep was interrupted after 250 runs \(its progress\.json is there\), so it has no results to read yet: finish it with `spiralbench run`, its flags and --resume$/,
    ],
    [
      'no summary.json',
      (dir: string) => fixtureFolder({ 'runs.jsonl': '' }, join(dir, 'bare')),
      /bare: a finished sweep folder holding summary\.json; this one has none, so its sweep did not finish/,
    ],
    [
      'no runs.jsonl',
      (dir: string) => fixtureFolder({}, join(dir, 'empty')),
      /empty: .*; the folder has no runs\.jsonl$/,
    ],
    [
      'another file',
      (dir: string) => join(fixtureFolder({ 'notes.txt': '' }, join(dir, 'other')), 'notes.txt'),
      /notes\.txt: a sweep folder .*, or the runs\.jsonl or summary\.json in one; this is another file$/,
    ],
  ])('refuses %s', async (_what, make, expected) => {
    const path = make(fixtureFolder({}));
    expect(await problem(() => openFinishedSweep(path))).toMatch(expected);
  });

  it('refuses a folder a live process is writing', async () => {
    const dir = finishedFolder(runs(1));
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, 'spiralbench.lock'), JSON.stringify({ pid: child.pid, host: hostname() }));
      expect(await problem(() => openFinishedSweep(dir))).toBe(
        `${dir}: a finished sweep folder; it is in use by process ${child.pid}: wait for it to finish, or use another folder`,
      );
    } finally {
      child.kill();
    }
  });

  it('reads meta.json, a folder without format_version as version 1, and refuses an unknown version', async () => {
    const meta = {
      spiralbench: '0.1.0',
      node: 'v20',
      git_commit: null,
      started_at: 'a',
      finished_at: 'b',
      wall_seconds: 1,
      workers: 2,
      command: 'spiralbench run',
    };
    const dir = finishedFolder(runs(1));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta));
    expect(openFinishedSweep(dir).meta).toEqual(meta);
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, format_version: 1 }));
    expect(readMeta(dir)?.format_version).toBe(1);
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, format_version: 2 }));
    expect(await problem(() => openFinishedSweep(dir))).toMatch(
      /meta\.json: format_version: 1 \(the results format spiralbench .* reads\); got 2: the folder was written by another version of spiralbench$/,
    );
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, workers: -1 }));
    expect(await problem(() => openFinishedSweep(dir))).toMatch(
      /meta\.json: workers: a non-negative whole number; got -1/,
    );
  });

  it('names the file and field of a bad summary.json', async () => {
    const dir = finishedFolder(runs(1));
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...fixtureSummary([]), cells: [] }));
    expect(await problem(() => openFinishedSweep(dir))).toMatch(/summary\.json: cells: /);
    writeFileSync(join(dir, 'summary.json'), '{ not json');
    expect(await problem(() => openFinishedSweep(dir))).toMatch(/summary\.json: a JSON summary; got "\{ not json"/);
  });
});

describe('readRuns', () => {
  const cut = 'the file was cut short or changed after the sweep finished';

  it('refuses a runs.jsonl with fewer or more runs than summary.json counts, in all or in a cell', async () => {
    const short = finishedFolder(runs(3), fixtureSummary([{ scenario: 's1', arm: 'none', runs: 5 }]));
    expect(await problem(() => readAll(openFinishedSweep(short)))).toBe(
      `${join(short, 'runs.jsonl')}: 5 runs, as summary.json records; found 3: ${cut}`,
    );
    const shifted = finishedFolder(
      [...runs(2), ...runs(4, { arm: 'b' })],
      fixtureSummary([
        { scenario: 's1', arm: 'none', runs: 3 },
        { scenario: 's1', arm: 'b', runs: 3 },
      ]),
    );
    expect(await problem(() => readAll(openFinishedSweep(shifted)))).toBe(
      `${join(shifted, 'runs.jsonl')}: 3 runs of s1 · none, as summary.json records; found 2: ${cut}`,
    );
  });

  it.each([
    [
      'a sweep seed',
      { sweep_seed: 4 },
      'sweep_seed: 0, the sweep seed in summary.json; got 4: the run is from another sweep',
    ],
    [
      'a seed',
      { seed: 11 },
      'seed: a run seed in 1..10, as summary.json records; got 11: the run is from another sweep',
    ],
    [
      'a cell',
      { arm: 'other' },
      'scenario: a (scenario, arm) cell of summary.json; s1 · other is not one: the run is from another sweep',
    ],
  ])('refuses a run of another sweep (%s), on its line', async (_what, fields, expected) => {
    const dir = finishedFolder(runs(2), fixtureSummary([{ scenario: 's1', arm: 'none', runs: 2 }]));
    writeFileSync(join(dir, 'runs.jsonl'), `${JSON.stringify(fixtureRun())}\n${JSON.stringify(fixtureRun(fields))}\n`);
    expect(await problem(() => readAll(openFinishedSweep(dir)))).toBe(`${join(dir, 'runs.jsonl')}:2: ${expected}`);
  });

  it.each([
    [
      'a torn line',
      '{"sweep_seed":0,"scen',
      '',
      /^one JSON run record per line; got "\{\\"sweep_seed\\":0,\\"scen" \(/,
    ],
    ['an array', '[1, 2]', '', /^a JSON object \(a run record\); got "\[1, 2\]"$/],
    [
      'a missing count',
      JSON.stringify({ ...fixtureRun(), tool_calls: undefined }),
      'tool_calls',
      /^a non-negative whole number; got nothing \(the field is missing\)$/,
    ],
    [
      'a huge number',
      JSON.stringify(fixtureRun()).replace('"input_tokens":1000', '"input_tokens":1e400'),
      'input_tokens',
      /^a non-negative whole number; got Infinity$/,
    ],
    [
      'an unknown verdict',
      JSON.stringify(fixtureRun({ verdict: 'great' })),
      'verdict',
      /^one of success, escalated, failure, harmful; got "great"$/,
    ],
    [
      'a count of the wrong type',
      JSON.stringify(fixtureRun({ faults: { timeout: '2' } })),
      'faults.timeout',
      /^a non-negative whole number; got "2"$/,
    ],
  ])('names the file, line and field of %s', async (_what, line, field, expected) => {
    const dir = finishedFolder(runs(2));
    writeFileSync(join(dir, 'runs.jsonl'), `${JSON.stringify(fixtureRun())}\n${line}\n`);
    const error = await problem(() => readAll(openFinishedSweep(dir)));
    const prefix = `${join(dir, 'runs.jsonl')}:2: ${field === '' ? '' : `${field}: `}`;
    expect(error.startsWith(prefix), error).toBe(true);
    expect(error.slice(prefix.length)).toMatch(expected);
  });

  it('reads runs written before the appended fields (model faults, cost, ...) existed, and a failure reason', async () => {
    const { model_faults: _m, refetch_calls: _r, journal: _j, cost_usd: _c, ...old } = fixtureRun();
    const failed = fixtureRun({
      seed: 2,
      outcome: 'failed',
      failure_reason: { error_class: 'RateLimitError', status: 429, message: 'slow down' },
    });
    const dir = finishedFolder([old as StoredRun, failed]);
    expect((await readAll(openFinishedSweep(dir)))[1]?.failure_reason?.status).toBe(429);
  });
});

describe('readTraces', () => {
  it('is undefined without traces.jsonl, and names the line and field of a bad trace', async () => {
    const dir = finishedFolder(runs(1));
    expect(await readTraces(openFinishedSweep(dir))).toBeUndefined();
    writeFileSync(join(dir, 'traces.jsonl'), '{"scenario":"s"}\n');
    expect(await problem(() => readTraces(openFinishedSweep(dir)))).toMatch(
      /traces\.jsonl:1: arm: a non-empty string; got nothing/,
    );
  });
});

describe('readInterruptedRuns', () => {
  it('reads up to the synced size only, and names the file and line of a damaged run', async () => {
    const text = runs(3)
      .map((run) => `${JSON.stringify(run)}\n`)
      .join('');
    const dir = fixtureFolder({ 'runs.jsonl': `${text}{"torn` });
    const progress = (runs_done: number, jsonl_bytes: number) =>
      ({ runs_done, jsonl_bytes }) as Parameters<typeof readInterruptedRuns>[1];
    const seeds: number[] = [];
    await readInterruptedRuns(dir, progress(3, text.length), (run) => seeds.push(run.seed));
    expect(seeds).toEqual([1, 2, 3]);
    writeFileSync(
      join(dir, 'runs.jsonl'),
      text.replace('{"sweep_seed":0,"scenario":"s1","arm":"none","seed":2', 'X'.repeat(52)),
    );
    expect(await problem(() => readInterruptedRuns(dir, progress(3, text.length), () => {}))).toMatch(
      new RegExp(`^${join(dir, 'runs.jsonl')}:2: one JSON run record per line`),
    );
    writeFileSync(join(dir, 'runs.jsonl'), text);
    expect(await problem(() => readInterruptedRuns(dir, progress(4, text.length), () => {}))).toMatch(
      /runs\.jsonl: 4 finished runs, as progress\.json records; found 3: the folder was changed since, so start the sweep again with --overwrite$/,
    );
  });
});
