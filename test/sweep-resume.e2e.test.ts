import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from './cli-helpers.js';

const FILES = ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'];
/**
 * Enough runs for many more chunks than the pool keeps queued (8) and in flight, so a
 * signal sent after the first chunks always finds chunks not yet started, however
 * loaded the machine is.
 */
const SEEDS = 2000;
const RUNS = 4 * SEEDS;
const SWEEP = [
  'run',
  '--scenario',
  'fetch-transform-write,send-email-partial-write',
  '--arms',
  'none,article',
  '--seeds',
  String(SEEDS),
  '--workers',
  '2',
];

const files = (dir: string) => FILES.map((file) => readFileSync(join(dir, file), 'utf8'));
const progressOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'progress.json'), 'utf8')) as {
    chunks_done: number;
    runs_done: number;
    jsonl_bytes: number;
  };

/**
 * Starts a sweep into `dir` and sends it `signal` as soon as progress.json says
 * `chunks` chunks are on disk: event-driven (a watch on the folder), no sleeps.
 */
function interruptSweep(
  dir: string,
  signal: NodeJS.Signals,
  chunks: number,
  sweep: readonly string[] = SWEEP,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  mkdirSync(dir, { recursive: true });
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, ...sweep, '--out', dir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  let sent = false;
  const watcher = watch(dir, () => {
    if (sent || !existsSync(join(dir, 'progress.json'))) return;
    try {
      if (progressOf(dir).chunks_done < chunks) return;
    } catch {
      return; // caught between the rename and the read: the next event reads it
    }
    sent = true;
    child.kill(signal);
  });
  return new Promise((done) =>
    child.on('exit', (code, exitSignal) => {
      watcher.close();
      done({ code, signal: exitSignal, stderr });
    }),
  );
}

describe('a sweep survives being stopped', () => {
  const reference = tempDir();
  const uninterrupted = cli([...SWEEP, '--out', reference]);

  it('killed with SIGKILL part-way, then resumed, it is the same bytes as an uninterrupted sweep', async () => {
    expect(uninterrupted.status, uninterrupted.stderr).toBe(0);
    const dir = join(tempDir(), 'sweep');
    const killed = await interruptSweep(dir, 'SIGKILL', 2);
    expect(killed.signal).toBe('SIGKILL');
    const progress = progressOf(dir);
    expect(progress.runs_done).toBeGreaterThan(0);
    expect(progress.runs_done).toBeLessThan(RUNS);
    expect(existsSync(join(dir, 'summary.json'))).toBe(false);
    // A crash mid-write leaves a torn line past what was synced; the resume cuts it off.
    appendFileSync(join(dir, 'runs.jsonl'), '{"sweep_seed":0,"scen');
    appendFileSync(join(dir, 'runs.csv'), '0,fetch-tra');

    const resumed = cli([...SWEEP, '--out', dir, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(files(dir)).toEqual(files(reference));
    expect(existsSync(join(dir, 'progress.json'))).toBe(false);
  });

  it('Ctrl-C stops cleanly: the runs in flight are written, exit 130 with the resume command, and --resume finishes it', async () => {
    const dir = join(tempDir(), 'sweep');
    const stopped = await interruptSweep(dir, 'SIGINT', 1);
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/stopping after the runs in flight/);
    expect(stopped.stderr).toMatch(/Resume with: spiralbench run .* --resume/);
    // A clean stop leaves whole chunks only: the file ends where progress.json says.
    expect(readFileSync(join(dir, 'runs.jsonl')).length).toBe(progressOf(dir).jsonl_bytes);

    const resumed = cli([...SWEEP, '--out', dir, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(files(dir)).toEqual(files(reference));
  });

  it('Ctrl-C stops an inline sweep (--workers 1) the same way: exit 130, the resume command, and --resume finishes it', async () => {
    const inline = SWEEP.map((arg, i) => (SWEEP[i - 1] === '--workers' ? '1' : arg));
    const dir = join(tempDir(), 'sweep');
    const stopped = await interruptSweep(dir, 'SIGINT', 1, inline);
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/stopping after the runs in flight/);
    expect(stopped.stderr).toMatch(/Resume with: spiralbench run .*--workers 1 .*--resume/);
    const progress = progressOf(dir);
    expect(progress.runs_done).toBeLessThan(RUNS);
    expect(readFileSync(join(dir, 'runs.jsonl')).length).toBe(progress.jsonl_bytes);

    const resumed = cli([...inline, '--out', dir, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(files(dir)).toEqual(files(reference));
  });

  it('refuses to resume a different sweep, naming what differs, and a finished one', async () => {
    const dir = join(tempDir(), 'sweep');
    await interruptSweep(dir, 'SIGKILL', 1);
    const other = cli([
      ...SWEEP.map((arg) => (arg === String(SEEDS) ? '500' : arg)),
      '--arms',
      'none',
      '--out',
      dir,
      '--resume',
    ]);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(
      /progress\.json: sweep\.arms: the interrupted sweep's arms \(none\[\], article\[stuck\+budget\+repeat\+classify\]\), got none\[\]/,
    );
    expect(other.stderr).toMatch(/sweep\.seeds:/);
    const finished = cli([...SWEEP, '--out', reference, '--resume']);
    expect(finished.status).toBe(2);
    expect(finished.stderr).toMatch(/the sweep in this folder finished/);
    const nothing = cli([...SWEEP, '--out', tempDir(), '--resume']);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toMatch(/progress\.json: an interrupted sweep to resume; this folder has none/);
  });
});
