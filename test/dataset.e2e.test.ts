import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliAsync, tempDir } from './cli-helpers.js';

// Sixty tasks from one scenario file: the reference task for sixty users (examples/datasets).
const SCENARIO = fileURLToPath(new URL('../examples/datasets/user-exports.yaml', import.meta.url));
const ROWS = readFileSync(new URL('../examples/datasets/user-exports.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { user_id: string });
const SEEDS = 120;

interface Run {
  arm: string;
  seed: number;
  verdict: string;
  task: string;
}

/** pass^k as τ-bench defines it, computed here from the records: C(c, k) / C(n, k) averaged over tasks. */
function passHatK(runs: readonly Run[], k: number): number {
  const tasks = new Map<string, { n: number; c: number }>();
  for (const run of runs) {
    const task = tasks.get(run.task) ?? { n: 0, c: 0 };
    tasks.set(run.task, { n: task.n + 1, c: task.c + (run.verdict === 'success' ? 1 : 0) });
  }
  const choose = (n: number, r: number): number => (r > n ? 0 : r === 0 ? 1 : (choose(n - 1, r - 1) * n) / r);
  const each = [...tasks.values()].map(({ n, c }) => choose(c, k) / choose(n, k));
  return each.reduce((sum, value) => sum + value, 0) / each.length;
}

describe('a dataset scenario: one task a row', () => {
  const out = join(tempDir(), 'dataset');
  let stdout = '';
  let runs: Run[] = [];

  beforeAll(async () => {
    const run = await cliAsync([
      'run',
      '-s',
      SCENARIO,
      '-a',
      'none,article',
      '-n',
      String(SEEDS),
      '-w',
      '2',
      '-o',
      out,
    ]);
    expect(run.status, run.stderr).toBe(0);
    stdout = run.stdout;
    runs = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Run);
  }, 120_000);

  it('validates every row', async () => {
    const result = await cliAsync(['validate', SCENARIO]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`ok ${SCENARIO} (60 tasks, every row checked)\n`);
  });

  it('cycles the seeds through the rows, each run recording its task', () => {
    expect(runs).toHaveLength(2 * SEEDS);
    for (const run of runs) expect(run.task, `seed ${run.seed}`).toBe(ROWS[(run.seed - 1) % ROWS.length]!.user_id);
  });

  it('reports pass^k per task, as the records give it, and the hardest tasks', () => {
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      pass_hat_k: Array<{ arm: string; k: Record<string, number> }>;
      scenarios: Array<{ tasks: string[] }>;
    };
    expect(summary.scenarios[0]?.tasks).toEqual(ROWS.map((row) => row.user_id));
    for (const { arm, k } of summary.pass_hat_k) {
      const mine = runs.filter((run) => run.arm === arm);
      expect(Object.keys(k)).toEqual(['1', '2']);
      expect(k['1']).toBeCloseTo(passHatK(mine, 1), 4);
      expect(k['2']).toBeCloseTo(passHatK(mine, 2), 4);
    }
    expect(stdout).toContain("pass^k (each scenario a task, a dataset's rows a task each; τ-bench)");
    expect(stdout).toMatch(
      /Tasks of user-exports \(60 tasks, 2 runs each a cell\):\n {2}none {5}right every run on \d+ of 60/,
    );
  });

  it('replays a run byte for byte, naming its task', async () => {
    const seed = 77;
    const record = runs.find((run) => run.arm === 'none' && run.seed === seed)!;
    const replay = await cliAsync(['replay', '--scenario', SCENARIO, '--arm', 'none', '--seed', String(seed)]);
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(`user-exports · arm none · seed ${seed} · task ${record.task} ·`);
    expect(replay.stdout).toContain(`prompt: Fetch the user record for user ${record.task},`);
    expect(replay.stdout).toContain(`verdict: ${record.verdict}`);
  });

  it("plays each seed's own task in live mode too (its tools serve that task's world)", async () => {
    // No faults: every task is done right, so a run judged against another task's world would fail.
    const dir = tempDir();
    const text = readFileSync(SCENARIO, 'utf8').replace(
      'rates: { timeout: 0.30, malformed_json: 0.10, rate_limit: 0.05 }',
      'rates: { timeout: 0, malformed_json: 0, rate_limit: 0 }',
    );
    writeFileSync(join(dir, 'user-exports.yaml'), text);
    copyFileSync(SCENARIO.replace(/\.yaml$/, '.jsonl'), join(dir, 'user-exports.jsonl'));
    const live = await cliAsync([
      'run',
      '-s',
      join(dir, 'user-exports.yaml'),
      '-a',
      'article',
      '-n',
      '4',
      '--live',
      '-o',
      join(dir, 'live'),
      '--json',
    ]);
    expect(live.status, live.stderr).toBe(0);
    const played = readFileSync(join(dir, 'live', 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Run);
    expect(played.map((run) => [run.task, run.verdict])).toEqual(
      ROWS.slice(0, 4).map((row) => [row.user_id, 'success']),
    );
  }, 60_000);
});
