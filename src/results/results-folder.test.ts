import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { claimResultsFolder, sweepIntent, type FolderIntent } from './results-folder.js';
import { finishedFolder, fixtureFolder, fixtureRun } from './sweep-fixture.test-helpers.js';

const quiet = { note: () => {} };
const progress = (runs: number) =>
  JSON.stringify({
    spiralbench: '0.1.0',
    sweep: {
      scenarios: [],
      arms: [],
      seeds: { base: 1, count: 1 },
      sweep_seed: 0,
      model: 'simulated',
      shard: { index: 1, count: 1 },
      chunk_size: 250,
    },
    chunks_done: runs === 0 ? 0 : 1,
    runs_done: runs,
    jsonl_bytes: 0,
    csv_bytes: 0,
  });
/** A folder a sweep was interrupted in, after `runs` runs. */
const interrupted = (runs: number) =>
  fixtureFolder({ 'progress.json': progress(runs), 'runs.jsonl': 'x\n'.repeat(runs) });

function refusal(dir: string, intent: FolderIntent): string {
  try {
    claimResultsFolder(dir, intent, quiet).release();
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
  return 'claimed';
}

describe('claimResultsFolder', () => {
  it('refuses a new sweep into an interrupted one, naming --resume and --overwrite, and keeps no lock', () => {
    const dir = interrupted(3);
    expect(refusal(dir, 'sweep')).toBe(
      `${dir}: a folder without an interrupted sweep; it holds one with 3 finished runs, which this would delete: add --resume to continue it (same flags), or --overwrite to delete its runs and start over`,
    );
    expect(refusal(dir, 'merge')).toMatch(
      /with 3 finished runs, which this would delete: finish it with `spiralbench run` and --resume, or merge into another folder$/,
    );
    expect(readdirSync(dir).sort()).toEqual(['progress.json', 'runs.jsonl']);
  });

  it('lets --overwrite and --resume take it, and a new sweep take one with no finished run', () => {
    expect(refusal(interrupted(3), 'discard')).toBe('claimed');
    const folder = claimResultsFolder(interrupted(3), 'resume', quiet);
    expect(folder.progress?.runs_done).toBe(3);
    folder.release();
    expect(refusal(interrupted(0), 'sweep')).toBe('claimed');
  });

  it('refuses runs without a summary or a progress file: a sweep that cannot be resumed', () => {
    expect(refusal(fixtureFolder({ 'runs.jsonl': `${JSON.stringify(fixtureRun())}\n` }), 'sweep')).toMatch(
      /its runs\.jsonl has runs but no summary\.json, which this would delete: add --overwrite/,
    );
    expect(refusal(fixtureFolder({ 'runs.jsonl': '' }), 'sweep')).toBe('claimed');
  });

  it('refuses a finished sweep for a new sweep or a merge, naming --overwrite, and takes it with --overwrite', () => {
    const dir = finishedFolder([fixtureRun()]);
    expect(refusal(dir, 'sweep')).toBe(
      `${dir}: a folder without a finished sweep; it holds one (its summary.json is there), which this would replace: add --overwrite to replace it, or use another --out`,
    );
    expect(refusal(dir, 'merge')).toMatch(
      /it holds one \(its summary\.json is there\), which this would replace: add --overwrite to replace it, or merge into another folder$/,
    );
    expect(readdirSync(dir).sort()).toEqual(['runs.jsonl', 'summary.json']);
    expect(refusal(dir, 'discard')).toBe('claimed');
    expect(refusal(dir, 'merge-discard')).toBe('claimed');
  });

  it("lets a sweep into the default folder replace its finished sweep, but not an interrupted one's runs", () => {
    expect(refusal(finishedFolder([fixtureRun()]), 'latest')).toBe('claimed');
    expect(refusal(interrupted(3), 'latest')).toMatch(/it holds one with 3 finished runs, which this would delete/);
  });

  it('does not let a finished sweep be resumed', () => {
    const dir = finishedFolder([fixtureRun()]);
    expect(refusal(dir, 'resume')).toBe(
      `${join(dir, 'progress.json')}: an interrupted sweep to resume; the sweep in this folder finished (summary.json is there)`,
    );
    expect(refusal(join(dir, 'nothing'), 'resume')).toMatch(/an interrupted sweep to resume; this folder has none$/);
    expect(existsSync(join(dir, 'nothing'))).toBe(false);
  });

  it('refuses an --out that is a file, and a progress file of an unknown format version', () => {
    const dir = fixtureFolder({ file: '' });
    expect(refusal(join(dir, 'file'), 'sweep')).toBe(`--out: a folder; ${join(dir, 'file')} is a file`);
    const future = fixtureFolder({
      'progress.json': JSON.stringify({ ...JSON.parse(progress(1)), format_version: 9 }),
    });
    expect(refusal(future, 'resume')).toMatch(/progress\.json: format_version: 1 \(the results format .*\); got 9/);
  });

  it('removes temporary files a dead writer left, and only those', () => {
    const dir = finishedFolder([fixtureRun()]);
    writeFileSync(join(dir, 'summary.json.tmp-999999999'), 'half');
    writeFileSync(join(dir, `meta.json.tmp-${process.ppid}`), 'a live writer');
    writeFileSync(join(dir, 'notes.txt.tmp-999999999'), 'not ours');
    claimResultsFolder(dir, 'discard', quiet).release();
    expect(readdirSync(dir).sort()).toEqual([
      `meta.json.tmp-${process.ppid}`,
      'notes.txt.tmp-999999999',
      'runs.jsonl',
      'summary.json',
    ]);
  });
});

describe('sweepIntent', () => {
  it('refuses --resume with --overwrite', () => {
    expect(() => sweepIntent(true, true)).toThrow(/--overwrite: left out with --resume/);
    expect([sweepIntent(false, false), sweepIntent(true, false), sweepIntent(false, true)]).toEqual([
      'sweep',
      'resume',
      'discard',
    ]);
    expect([sweepIntent(false, false, true), sweepIntent(true, false, true), sweepIntent(false, true, true)]).toEqual([
      'latest',
      'resume',
      'discard',
    ]);
  });
});
