import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, cliAsync, tempDir } from './cli-helpers.js';

// A CI gate, a report or a merge must never pass on partial data, and a sweep must never
// lose another sweep's runs: every way a results folder can be incomplete, inconsistent or
// in use is refused with one clear line and exit code 2.

const SWEEP = ['run', '--scenario', 'fetch-transform-write', '--arms', 'none,classify', '--seeds', '300'];
const RUNS = 600;
const LOCK = 'spiralbench.lock';
const RESULTS = ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'];

let root = '';
let finished = '';

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
const lines = (dir: string) => read(dir, 'runs.jsonl').split('\n').filter(Boolean);

/** A copy of the finished sweep to tamper with. */
function copy(name: string): string {
  const dir = join(root, name);
  cpSync(finished, dir, { recursive: true });
  return dir;
}

/** Runs.jsonl keeping only its first `keep` lines, whole. */
function cutTo(dir: string, keep: number): void {
  writeFileSync(join(dir, 'runs.jsonl'), `${lines(dir).slice(0, keep).join('\n')}\n`);
}

/** Runs `args` in the background; `until` is called on each change in `dir` and returns true to stop watching. */
function background(
  args: readonly string[],
  dir: string,
  until: (child: ReturnType<typeof spawn>) => boolean,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  mkdirSync(dir, { recursive: true });
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  let done = false;
  const watcher = watch(dir, () => {
    if (!done) done = until(child);
  });
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      watcher.close();
      resolve({ code, signal, stderr });
    }),
  );
}

/** How many chunks the sweep writing `dir` has synced (0 while there is no progress.json). */
function chunksDone(dir: string): number {
  try {
    return (JSON.parse(read(dir, 'progress.json')) as { chunks_done: number }).chunks_done;
  } catch {
    return 0; // not there yet, or caught between the rename and the read
  }
}

/** A sweep into `dir` killed (no clean stop) once its first chunk is on disk. */
async function interrupted(dir: string): Promise<void> {
  const killed = await background([...SWEEP, '--workers', '1', '--out', dir], dir, (child) => {
    if (chunksDone(dir) < 1) return false;
    child.kill('SIGKILL');
    return true;
  });
  expect(killed.signal).toBe('SIGKILL');
}

beforeAll(async () => {
  root = tempDir('spiralbench-integrity-');
  finished = join(root, 'finished');
  const result = await cliAsync([...SWEEP, '--out', finished]);
  expect(result.status, result.stderr).toBe(0);
  expect(lines(finished)).toHaveLength(RUNS);
});

describe('compare and run --check refuse a sweep that is not whole', () => {
  it('a runs.jsonl cut short at a line boundary: exit 2, not a passing gate', () => {
    const cut = copy('cut');
    cutTo(cut, 320);
    const result = cli(['compare', finished, cut, '--fail-on-regression']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^error: ${join(cut, 'runs.jsonl')}: .*600 runs.*summary\\.json.*320`, 'm'),
    );
    expect(result.stdout).toBe('');
  });

  it('a runs.jsonl cut in the middle of a line names the line', () => {
    const torn = copy('torn');
    const text = read(torn, 'runs.jsonl');
    const end = text.indexOf('\n', text.length / 2);
    writeFileSync(join(torn, 'runs.jsonl'), text.slice(0, end - 30));
    const at = text.slice(0, end).split('\n').length;
    const result = cli(['compare', finished, torn, '--fail-on-regression']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${join(torn, 'runs.jsonl')}:${at}: `);
  });

  it('an interrupted sweep folder, naming --resume', async () => {
    const dir = join(root, 'interrupted');
    await interrupted(dir);
    const result = cli(['compare', finished, dir, '--fail-on-regression']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: .*interrupted.*--resume/m);
  });

  it('a folder written by a newer spiralbench (unknown format_version)', () => {
    const future = copy('future');
    const meta = JSON.parse(read(future, 'meta.json')) as Record<string, unknown>;
    writeFileSync(join(future, 'meta.json'), JSON.stringify({ ...meta, format_version: 99 }));
    const result = cli(['compare', future, finished]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/meta\.json: format_version: .*1.*got 99/);
  });

  it('runs of another sweep in a folder (a different sweep seed than its summary.json)', () => {
    const mixed = copy('mixed');
    const replaced = lines(mixed).map((line) => line.replace('"sweep_seed":0,', '"sweep_seed":7,'));
    writeFileSync(join(mixed, 'runs.jsonl'), `${replaced.join('\n')}\n`);
    const result = cli(['compare', finished, mixed]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/runs\.jsonl:1: sweep_seed: /);
  });

  it('run --check against a baseline cut short', () => {
    const baseline = copy('cut-baseline');
    cutTo(baseline, 450);
    const result = cli([...SWEEP, '--out', join(root, 'checked'), '--check', baseline]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/runs\.jsonl: .*600 runs.*450/);
  });
});

describe('report refuses a sweep that is not whole', () => {
  it('a runs.jsonl cut short, for the HTML report and for the Markdown headline alike', () => {
    const cut = copy('report-cut');
    cutTo(cut, 599);
    const html = cli(['report', cut, '--html', join(root, 'cut.html')]);
    expect(html.status).toBe(2);
    expect(html.stderr).toMatch(/runs\.jsonl: .*600 runs.*599/);
    expect(existsSync(join(root, 'cut.html'))).toBe(false);
    const markdown = cli(['report', cut, '--markdown']);
    expect(markdown.status).toBe(2);
    expect(markdown.stdout).toBe('');
  });
});

describe('merge refuses shards that are not whole, and leaves no file behind when it does', () => {
  let shards: string[] = [];
  beforeAll(async () => {
    shards = [];
    for (const index of [1, 2]) {
      const dir = join(root, `shard-${index}`);
      const result = await cliAsync([...SWEEP, '--shard', `${index}/2`, '--out', dir]);
      expect(result.status, result.stderr).toBe(0);
      shards.push(dir);
    }
  });

  it('merges whole shards into the same bytes as the unsharded sweep', () => {
    const out = join(root, 'merged');
    const result = cli(['merge', ...shards, '-o', out]);
    expect(result.status, result.stderr).toBe(0);
    for (const file of RESULTS) expect(read(out, file), file).toBe(read(finished, file));
    expect(readdirSync(out).sort()).toEqual(['meta.json', ...RESULTS].sort());
  });

  it('a shard whose runs.jsonl was cut short', () => {
    const cut = join(root, 'shard-2-cut');
    cpSync(shards[1]!, cut, { recursive: true });
    cutTo(cut, 100);
    const out = join(root, 'merged-cut');
    const result = cli(['merge', shards[0]!, cut, '-o', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/shard-2-cut\/runs\.jsonl: .*300 runs.*100/);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('a shard with a bad line: no empty or partial file is left in -o, and what was there survives', () => {
    const bad = join(root, 'shard-2-bad');
    cpSync(shards[1]!, bad, { recursive: true });
    const text = lines(bad);
    text[200] = '{"not": "a run"}';
    writeFileSync(join(bad, 'runs.jsonl'), `${text.join('\n')}\n`);
    const out = copy('merged-over');
    const before = RESULTS.map((file) => read(out, file));
    const result = cli(['merge', shards[0]!, bad, '-o', out, '--overwrite']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${join(bad, 'runs.jsonl')}:201: `);
    expect(RESULTS.map((file) => read(out, file))).toEqual(before);
    expect(readdirSync(out).filter((file) => file.includes('.tmp-'))).toEqual([]);
  });

  it('a shard with a run recorded twice (and so another missing): named on its line, -o left as it was', () => {
    const twice = join(root, 'shard-2-twice');
    cpSync(shards[1]!, twice, { recursive: true });
    const text = lines(twice);
    text[1] = text[0]!;
    writeFileSync(join(twice, 'runs.jsonl'), `${text.join('\n')}\n`);
    const out = copy('merged-twice');
    const before = RESULTS.map((file) => read(out, file));
    const result = cli(['merge', shards[0]!, twice, '-o', out, '--overwrite']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${join(twice, 'runs.jsonl')}:2: seed: a seed not already recorded`);
    expect(result.stderr).toMatch(/seed 1 is also on line 1/);
    expect(RESULTS.map((file) => read(out, file))).toEqual(before);
  });

  it('shards that overlap, a shard short of runs its summary agrees with, a shard without its traces', async () => {
    const thirds: string[] = [];
    for (const index of [1, 2, 3]) {
      const dir = join(root, `third-${index}`);
      const result = await cliAsync([...SWEEP, '--shard', `${index}/3`, '--out', dir]);
      expect(result.status, result.stderr).toBe(0);
      thirds.push(dir);
    }
    const [one, two, three] = thirds as [string, string, string];
    expect(cli(['merge', one, two, three, '-o', join(root, 'merged-thirds')]).status).toBe(0);
    // Shard 2's first run (none, seed 201) swapped for shard 1's last (none, seed 200).
    const overlap = join(root, 'third-2-overlap');
    cpSync(two, overlap, { recursive: true });
    const text = lines(overlap);
    text[0] = lines(one).at(-1)!;
    writeFileSync(join(overlap, 'runs.jsonl'), `${text.join('\n')}\n`);
    const overlapping = cli(['merge', one, overlap, three, '-o', join(root, 'merged-overlap')]);
    expect(overlapping.status).toBe(2);
    expect(overlapping.stderr).toContain(
      `${join(overlap, 'runs.jsonl')}:1: seed: a seed no other shard holds; seed 200 of fetch-transform-write · none is also in ${join(one, 'runs.jsonl')}:200: the shards overlap`,
    );
    // Shard 2 without its first run, and its summary.json saying so.
    const short = join(root, 'third-2-short');
    cpSync(two, short, { recursive: true });
    writeFileSync(join(short, 'runs.jsonl'), `${lines(short).slice(1).join('\n')}\n`);
    const summary = JSON.parse(read(short, 'summary.json')) as { cells: { arm: string; runs: number }[] };
    for (const cell of summary.cells) if (cell.arm === 'none') cell.runs -= 1;
    writeFileSync(join(short, 'summary.json'), JSON.stringify(summary));
    const shortened = cli(['merge', one, short, three, '-o', join(root, 'merged-short')]);
    expect(shortened.status).toBe(2);
    expect(shortened.stderr).toMatch(/the shards hold 299 of the 300 runs of fetch-transform-write · none/);
    const untraced = join(root, 'third-3-untraced');
    cpSync(three, untraced, { recursive: true });
    rmSync(join(untraced, 'traces.jsonl'));
    const lost = cli(['merge', one, two, untraced, '-o', join(root, 'merged-untraced')]);
    expect(lost.status).toBe(2);
    expect(lost.stderr).toContain(
      `${join(untraced, 'traces.jsonl')}: the shard's traces, as the other shards have them`,
    );
  });

  it('a shard that would hold no run is refused before it runs', () => {
    const result = cli([
      'run',
      '--scenario',
      'fetch-transform-write',
      '--arms',
      'none',
      '--seeds',
      '2',
      '--shard',
      '1/3',
      '--out',
      join(root, 'empty-shard'),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--shard: .*at most 2 shards: the sweep has 2 runs, so this shard would hold none/);
    expect(existsSync(join(root, 'empty-shard'))).toBe(false);
  });

  it('compare and run --check take a whole sweep on either side, never a shard', () => {
    for (const [a, b] of [
      [finished, shards[1]!],
      [shards[0]!, finished],
    ] as const) {
      const compared = cli(['compare', a, b, '--fail-on-regression']);
      expect(compared.status).toBe(2);
      expect(compared.stderr).toMatch(
        /summary\.json: shard: a whole sweep to compare; this folder holds shard [12]\/2 of one/,
      );
    }
    const checked = cli([...SWEEP, '--shard', '2/2', '--out', join(root, 'checked-shard'), '--check', finished]);
    expect(checked.status).toBe(2);
    expect(checked.stderr).toMatch(/^error: --check: a whole sweep to gate, without --shard/m);
    expect(existsSync(join(root, 'checked-shard'))).toBe(false);
  });

  it('compare says when the two sides ran different versions of a scenario file', () => {
    const edited = copy('edited-scenario');
    const summary = JSON.parse(read(edited, 'summary.json')) as { scenarios: { hash: string }[] };
    summary.scenarios[0]!.hash = 'another';
    writeFileSync(join(edited, 'summary.json'), JSON.stringify(summary));
    const compared = cli(['compare', finished, edited]);
    expect(compared.status, compared.stderr).toBe(0);
    expect(compared.stdout).toContain('note: fetch-transform-write: the scenario file differs between A and B');
  });

  it('a shard of another sweep', () => {
    const other = join(root, 'shard-2-other');
    const result = cli([...SWEEP, '--sweep-seed', '3', '--shard', '2/2', '--out', other]);
    expect(result.status, result.stderr).toBe(0);
    const merged = cli(['merge', shards[0]!, other, '-o', join(root, 'merged-other')]);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toMatch(/shard-2-other\/summary\.json: a shard of the same sweep/);
  });

  it('a shard written by a newer spiralbench', () => {
    const future = join(root, 'shard-2-future');
    cpSync(shards[1]!, future, { recursive: true });
    writeFileSync(join(future, 'meta.json'), JSON.stringify({ format_version: 2 }));
    const merged = cli(['merge', shards[0]!, future, '-o', join(root, 'merged-future')]);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toMatch(/shard-2-future\/meta\.json: format_version: /);
  });
});

describe('a results folder has one writer at a time', () => {
  it('a second sweep into a folder in use is refused, and the first finishes whole', async () => {
    const dir = join(root, 'busy');
    let second: ReturnType<typeof cli> | undefined;
    const first = await background([...SWEEP, '--workers', '1', '--out', dir], dir, (child) => {
      if (chunksDone(dir) < 1) return false;
      // Frozen, the first sweep is alive and mid-way, whatever the machine's speed.
      child.kill('SIGSTOP');
      second = cli([...SWEEP, '--out', dir]);
      child.kill('SIGCONT');
      return true;
    });
    expect(second?.status).toBe(2);
    expect(second?.stderr).toMatch(new RegExp(`^error: ${join(dir, LOCK)}: .*in use by process \\d+`, 'm'));
    expect(first.code, first.stderr).toBe(0);
    for (const file of RESULTS) expect(read(dir, file), file).toBe(read(finished, file));
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });

  it('a lock left by a process that is gone is taken over, with a note', () => {
    const dir = join(root, 'stale');
    mkdirSync(dir);
    const gone = spawnPid();
    writeFileSync(join(dir, LOCK), `${JSON.stringify({ pid: gone })}\n`);
    const result = cli([...SWEEP, '--out', dir]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`note: .*process ${gone}.*no longer running`));
    expect(read(dir, 'runs.jsonl')).toBe(read(finished, 'runs.jsonl'));
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });
});

/** The pid of a process that has exited (and been reaped: a zombie would still answer as alive). */
function spawnPid(): number {
  return spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid;
}

describe('an interrupted sweep is never deleted by accident', () => {
  it('a new sweep without --resume into it is refused, naming --resume and --overwrite, and leaves it as it was', async () => {
    const dir = join(root, 'keep');
    await interrupted(dir);
    // The killed sweep's lock is stale: taken over and given back, the one change allowed.
    const contents = () =>
      readdirSync(dir)
        .filter((file) => file !== LOCK)
        .map((file) => [file, read(dir, file)]);
    const before = contents();
    const result = cli([...SWEEP, '--out', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: .*interrupted sweep.*--resume.*--overwrite/m);
    expect(contents()).toEqual(before);

    const resumed = cli([...SWEEP, '--out', dir, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    for (const file of RESULTS) expect(read(dir, file), file).toBe(read(finished, file));
  });

  it('--overwrite starts over; it is documented in run --help and refused with --resume', async () => {
    const dir = join(root, 'discard');
    await interrupted(dir);
    const result = cli([...SWEEP, '--out', dir, '--overwrite']);
    expect(result.status, result.stderr).toBe(0);
    for (const file of RESULTS) expect(read(dir, file), file).toBe(read(finished, file));
    expect(cli(['run', '--help']).stdout).toMatch(/--overwrite\s+.*interrupted/);
    const both = cli([...SWEEP, '--out', dir, '--resume', '--overwrite']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--overwrite/);
  });

  it('a resume over a damaged runs.jsonl names the file and the line', async () => {
    const dir = join(root, 'damaged');
    await interrupted(dir);
    const text = read(dir, 'runs.jsonl');
    const third = text.split('\n').slice(0, 2).join('\n').length + 1;
    // Same length, so the synced size in progress.json still falls on a line end.
    writeFileSync(join(dir, 'runs.jsonl'), `${text.slice(0, third)}X${text.slice(third + 1)}`);
    const result = cli([...SWEEP, '--out', dir, '--resume']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: ${join(dir, 'runs.jsonl')}:3: `, 'm'));
    expect(result.stderr).not.toMatch(/unexpected error/);
  });

  it('a folder emptied of its progress but holding runs is not overwritten either', () => {
    const dir = copy('orphan-runs');
    rmSync(join(dir, 'summary.json'));
    truncateSync(join(dir, 'runs.jsonl'), 1000);
    const result = cli([...SWEEP, '--out', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--overwrite/);
  });
});

describe('a finished sweep is never replaced by accident', () => {
  it('a new sweep or a merge into it is refused with exit 2, naming the folder and --overwrite, and changes nothing', () => {
    const dir = copy('baseline');
    const contents = () => readdirSync(dir).map((file) => [file, read(dir, file)]);
    const before = contents();
    const again = cli([...SWEEP, '--sweep-seed', '7', '--out', dir]);
    expect(again.status).toBe(2);
    expect(again.stderr).toBe(
      `error: ${dir}: a folder without a finished sweep; it holds one (its summary.json is there), which this would replace: add --overwrite to replace it, or use another --out\n`,
    );
    const merge = cli(['merge', finished, '-o', dir]);
    expect(merge.status).toBe(2);
    expect(merge.stderr).toMatch(/--overwrite to replace it, or merge into another folder\n$/);
    expect(contents()).toEqual(before);
  });

  it('the default folder (no -o) is the latest sweep: a finished one there is replaced without --overwrite', () => {
    const cwd = tempDir();
    const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
    const plain = (seeds: string) =>
      spawnSync(process.execPath, [BIN, ...SWEEP, '--seeds', seeds], { cwd, env, encoding: 'utf8' });
    for (const seeds of ['3', '2']) {
      const result = plain(seeds);
      expect(result.status, result.stderr).toBe(0);
    }
    expect(lines(join(cwd, 'results', 'latest'))).toHaveLength(4);
  });

  it('--overwrite replaces it, and --discard (its older name) does too', () => {
    const dir = copy('replaced');
    const other = cli([...SWEEP, '--sweep-seed', '7', '--seeds', '3', '--out', dir, '--overwrite']);
    expect(other.status, other.stderr).toBe(0);
    expect(lines(dir)).toHaveLength(6);
    const back = cli([...SWEEP, '--out', dir, '--discard']);
    expect(back.status, back.stderr).toBe(0);
    for (const file of RESULTS) expect(read(dir, file), file).toBe(read(finished, file));
  });
});
