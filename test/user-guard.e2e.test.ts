import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from './cli-helpers.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

interface Shell {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A `spiralbench …` command line, run by a shell in `cwd` as a user would type or paste it. */
function spiralbench(command: string, cwd: string): Shell {
  expect(command).toMatch(/^spiralbench /);
  const line = command.replace(/^spiralbench /, `'${process.execPath}' '${BIN}' `);
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  return spawnSync('sh', ['-c', line], { cwd, encoding: 'utf8', env });
}

interface Record {
  readonly arm: string;
  readonly seed: number;
  readonly tool_calls: number;
  readonly input_tokens: number;
  readonly verdict: string;
}

interface Trace {
  readonly arm: string;
  readonly replay: string;
  readonly record: Record;
  readonly events: ReadonlyArray<{ readonly type: string; readonly content?: string }>;
}

const lines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);

// The example guard of examples/my-agent-project/guards, as a user's project holds it: spiralbench (here the
// build of this repo, until the package is installed by name) and zod resolve from the project.
describe('a user guard module named in an arms file', () => {
  const cwd = tempDir('user-guard-');
  let runs: Record[];
  let traces: Trace[];
  let sweep: Shell;

  beforeAll(() => {
    symlinkSync(join(REPO, 'node_modules'), join(cwd, 'node_modules'));
    mkdirSync(join(cwd, 'guards'));
    const example = readFileSync(join(REPO, 'examples/my-agent-project/guards/search-cap.ts'), 'utf8');
    expect(example).toContain("from 'spiralbench'");
    writeFileSync(
      join(cwd, 'guards/search-cap.ts'),
      example.replace("from 'spiralbench'", `from ${JSON.stringify(join(REPO, 'dist/loop/define-guard.js'))}`),
    );
    writeFileSync(
      join(cwd, 'arms.yaml'),
      'arms:\n  - name: capped\n    guards: [{ guard: ./guards/search-cap.ts, maxSearches: 0 }]\n',
    );
    sweep = spiralbench(
      'spiralbench run -s fetch-transform-write -a none,capped --arms-file arms.yaml -n 30 -w 2 -o out2',
      cwd,
    );
    runs = sweep.status === 0 ? lines<Record>(join(cwd, 'out2/runs.jsonl')) : [];
    traces = sweep.status === 0 ? lines<Trace>(join(cwd, 'out2/traces.jsonl')) : [];
  });

  it('runs in pool workers, and its arm is written into the summary with its module and settings', () => {
    expect(sweep.status, sweep.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(cwd, 'out2/summary.json'), 'utf8')) as {
      arms: ReadonlyArray<{ name: string; guards: unknown[] }>;
    };
    expect(summary.arms.find((arm) => arm.name === 'capped')?.guards).toEqual([
      {
        guard: 'search-cap',
        // From the folder the sweep ran in, and the text's sha256: a resume or merge over an edited guard is refused.
        module: './guards/search-cap.ts',
        hash: createHash('sha256')
          .update(readFileSync(join(cwd, 'guards/search-cap.ts')))
          .digest('hex'),
        settings: { maxSearches: 0, tools: ['search_users'] },
      },
    ]);
  });

  it('acts: its refusals reach the model, and the runs differ from the same seeds without it', () => {
    const refusals = (arm: string) =>
      traces
        .filter((trace) => trace.arm === arm)
        .flatMap((trace) => trace.events)
        .filter((event) => event.type === 'agent.tool.result' && event.content?.includes('searching is capped'));
    expect(refusals('capped').length).toBeGreaterThan(0);
    expect(refusals('none')).toEqual([]);
    const none = new Map(runs.filter((run) => run.arm === 'none').map((run) => [run.seed, run]));
    const changed = runs
      .filter((run) => run.arm === 'capped')
      .filter((run) => run.input_tokens !== none.get(run.seed)?.input_tokens);
    expect(changed.length).toBeGreaterThan(0);
  });

  it('gives the same runs in one thread as in two', () => {
    const inline = spiralbench(
      'spiralbench run -s fetch-transform-write -a none,capped --arms-file arms.yaml -n 30 -w 1 -o out1',
      cwd,
    );
    expect(inline.status, inline.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'out1/runs.jsonl'), 'utf8')).toBe(readFileSync(join(cwd, 'out2/runs.jsonl'), 'utf8'));
  });

  it('a printed replay command of its arm replays the run: exit 0, the same verdict and tool calls', () => {
    const trace = traces.find((candidate) => candidate.arm === 'capped');
    expect(trace?.replay).toContain('--arms-file arms.yaml');
    const replay = spiralbench(trace!.replay, cwd);
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(`verdict: ${trace!.record.verdict}`);
    expect(replay.stdout).toContain(`tool calls ${trace!.record.tool_calls} `);
    expect(replay.stdout).toContain('"guard":"search-cap"');
    // The guard by its path from where the command runs: the same bytes in any checkout.
    expect(replay.stdout).toContain('"module":"./guards/search-cap.ts"');
    expect(replay.stdout).not.toContain(cwd);
  });
});
