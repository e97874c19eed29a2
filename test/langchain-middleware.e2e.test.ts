import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliAsync, tempDir } from './cli-helpers.js';

// Needs `npm run build` first (npm test does it): the CLI and the `spiralbench/langchain` export run from dist/.

const RUN = ['run', '-s', 'fetch-transform-write', '-a', 'peer:langchain,peer:langchain+article', '-n', '50', '--json'];
const FILES = ['runs.jsonl', 'runs.csv', 'summary.json'];

interface Record {
  readonly arm: string;
  readonly tool_retries: number;
  readonly events: { readonly [type: string]: number };
}

function records(dir: string): Record[] {
  return readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record);
}

describe('peer:langchain+article, our guards as LangChain middleware', () => {
  // One worker, then two in another process: the second is the same sweep run again, and
  // its bytes must not depend on the worker count either.
  const [first, parallel] = [tempDir(), tempDir()];

  beforeAll(async () => {
    for (const [dir, workers] of [
      [first, '1'],
      [parallel, '2'],
    ] as const) {
      const result = await cliAsync([...RUN, '-w', workers, '-o', dir]);
      expect(result.status, result.stderr).toBe(0);
    }
  }, 240_000);

  it('gives the same bytes in another process with two workers', () => {
    for (const file of FILES)
      expect(readFileSync(join(parallel, file), 'utf8'), file).toBe(readFileSync(join(first, file), 'utf8'));
  });

  it('records the guards’ events on the guarded arm and none on the bare one', () => {
    const runs = records(first);
    const total = (arm: string, type: string) =>
      runs.filter((run) => run.arm === arm).reduce((sum, run) => sum + (run.events[type] ?? 0), 0);
    expect(total('peer:langchain+article', 'agent.tool.retry')).toBeGreaterThan(0);
    expect(total('peer:langchain+article', 'agent.repeat.blocked')).toBeGreaterThan(0);
    const guarded = runs.filter((run) => run.arm === 'peer:langchain+article');
    expect(guarded.reduce((sum, run) => sum + run.tool_retries, 0)).toBe(
      total('peer:langchain+article', 'agent.tool.retry'),
    );
    const bare = runs.filter((run) => run.arm === 'peer:langchain');
    expect(bare).toHaveLength(50);
    expect(bare.every((run) => run.tool_retries === 0 && Object.values(run.events).every((n) => n === 0))).toBe(true);
  });

  it('writes the preset into the arm’s settings, with the recursion limit that keeps the bare ceiling', () => {
    const summary = JSON.parse(readFileSync(join(first, 'summary.json'), 'utf8')) as {
      arms: Array<{ name: string; peer?: { guards?: string; recursionLimit: number } }>;
    };
    expect(summary.arms.find((arm) => arm.name === 'peer:langchain+article')?.peer).toMatchObject({
      guards: 'article',
      recursionLimit: 26,
    });
    expect(summary.arms.find((arm) => arm.name === 'peer:langchain')?.peer).not.toHaveProperty('guards');
  });
});

describe('the middleware takes our loop’s decisions', () => {
  it('gives the article arm’s verdicts and tool calls seed for seed where LangGraph’s ceiling does not bind', () => {
    const dir = tempDir();
    const result = cli([
      'run',
      '-s',
      'lookup-readonly',
      '-a',
      'article,peer:langchain+article',
      '-n',
      '30',
      '--json',
      '-o',
      dir,
    ]);
    expect(result.status, result.stderr).toBe(0);
    const runs = readFileSync(join(dir, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { arm: string; seed: number; verdict: string; outcome: string; tool_calls: number },
      );
    const ours = new Map(runs.filter((run) => run.arm === 'article').map((run) => [run.seed, run]));
    const guarded = runs.filter((run) => run.arm === 'peer:langchain+article');
    expect(guarded).toHaveLength(30);
    for (const run of guarded)
      expect([run.verdict, run.outcome, run.tool_calls], `seed ${run.seed}`).toEqual([
        ours.get(run.seed)!.verdict,
        ours.get(run.seed)!.outcome,
        ours.get(run.seed)!.tool_calls,
      ]);
    // The budget's final turn is among them: the lookup class allows 5 calls.
    expect(guarded.some((run) => run.outcome === 'budget_exhausted')).toBe(true);
  });
});

describe("the 'spiralbench/langchain' export, as a user imports it", () => {
  const fixture = fileURLToPath(new URL('./fixtures/langchain-user-agent.mjs', import.meta.url));
  const run = () =>
    spawnSync(process.execPath, [fixture], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it('runs createAgent with the middleware against the simulated model, its events counted, the same twice', () => {
    const once = run();
    expect(once.status, once.stderr).toBe(0);
    const result = JSON.parse(once.stdout) as {
      runs: number;
      successes: number;
      toolRetries: number;
      retryEvents: number;
    };
    expect(result.runs).toBe(12);
    expect(result.successes).toBeGreaterThan(0);
    expect(result.toolRetries).toBeGreaterThan(0);
    expect(result.retryEvents).toBe(result.toolRetries);
    expect(run().stdout).toBe(once.stdout);
  });
});
