import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The package as a user gets it: `npm pack` of this repository, installed by npm into a
// project outside it, imported by name, type-checked by tsc under NodeNext, and run.
// Needs `npm run build` first (npm test does it) and the npm registry or its cache.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const CONSUMER = join(ROOT, 'test', 'fixtures', 'consumer');
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

function run(command: string, args: readonly string[], cwd: string, timeout = 120_000): SpawnSyncReturns<string> {
  const { ANTHROPIC_API_KEY: _key, npm_config_prefix: _prefix, ...env } = process.env;
  return spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1' }, timeout });
}

function ok(result: SpawnSyncReturns<string>): string {
  if (result.status !== 0)
    throw new Error(`exit ${result.status}\n${result.stdout}\n${result.stderr}\n${result.error?.message ?? ''}`);
  return result.stdout;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // Our declarations are checked as a user's compiler sees them.
    skipLibCheck: false,
    types: ['node'],
    outDir: 'build',
    rootDir: 'src',
  },
  include: ['src'],
};

describe('the packed package, installed in a project of its own', () => {
  let work: string;
  let project: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'spiralbench-pack-'));
    project = join(work, 'consumer');
    mkdirSync(join(project, 'src'), { recursive: true });
    // --ignore-scripts: `prepare` would rebuild dist/ under the feet of tests running now.
    ok(run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], ROOT));
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${work}`);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    ok(run('npm', ['install', ...NPM_FLAGS, join(work, tarball), '@types/node@^20'], project, 170_000));
    for (const file of readdirSync(CONSUMER)) copyFileSync(join(CONSUMER, file), join(project, 'src', file));
  }, 180_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('ships the CLI, the scenarios and declarations, and no tests', () => {
    const installed = join(project, 'node_modules', 'spiralbench');
    for (const path of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/vitest/index.js',
      'dist/vitest/index.d.ts',
      'dist/ai-sdk/index.js',
      'dist/ai-sdk/index.d.ts',
      'dist/langchain/index.js',
      'dist/langchain/index.d.ts',
      'bin/spiralbench.js',
      'scenarios/fetch-transform-write.yaml',
    ])
      expect(existsSync(join(installed, path)), path).toBe(true);
    const shipped = readdirSync(installed, { recursive: true, encoding: 'utf8' });
    expect(shipped.filter((path) => /\.test(-helpers)?\.(ts|js|d\.ts|js\.map)$/.test(path))).toEqual([]);
    // Nothing is compiled on install, so no C++ toolchain is needed: checkpoints are plain JS.
    const dependencies = readdirSync(join(project, 'node_modules'), { recursive: true, encoding: 'utf8' });
    expect(dependencies.filter((path) => path.endsWith('binding.gyp'))).toEqual([]);
  });

  it("type-checks a consumer that imports 'spiralbench' by name, and runs it", () => {
    ok(run(process.execPath, [TSC, '-p', 'tsconfig.json'], project));
    const first = ok(run(process.execPath, ['build/consumer.js'], project));
    const runs = first
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(runs.map((entry) => entry.seed)).toEqual([1, 2, 3, 4, 5]);
    for (const entry of runs) {
      expect(entry.outcome).toBe('completed');
      expect(entry.retryEvents).toBe(entry.toolRetries);
      expect(entry.clockMs).toBe(entry.virtualMs);
      // The user's guard saw every call the model made.
      const counted = Object.values(entry.counted as Record<string, number>).reduce((sum, n) => sum + n, 0);
      expect(counted).toBe(entry.toolCalls);
      expect(entry.writes).toBe(entry.finalText === 'Done: the record is written.' ? 1 : 0);
    }
    // The seeded timeouts were met and ridden out by error classification's retries.
    expect(runs.some((entry) => entry.toolRetries > 0)).toBe(true);
    expect(runs.filter((entry) => entry.writes === 1).length).toBeGreaterThan(0);
    // Deterministic: the same program prints the same bytes.
    expect(ok(run(process.execPath, ['build/consumer.js'], project))).toBe(first);
  });

  it('runs its own agent (defineAgent) over 20 seeds of fetch-transform-write into a folder that report and replay read', () => {
    ok(run(process.execPath, [TSC, '-p', 'tsconfig.json'], project));
    const swept = JSON.parse(ok(run(process.execPath, ['build/agent-sweep.js', 'agent-out'], project)));
    expect(swept.outDir).toBe(join(project, 'agent-out'));
    expect(swept.arm).toBe('agent:consumer-loop');
    expect(swept.seeds).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    // The seeded faults bite some runs and not others: a verdict per run, judged on the world.
    expect(swept.success.trials).toBe(20);
    expect(swept.success.successes).toBeGreaterThan(0);
    expect(swept.success.successes).toBeLessThan(20);
    const lines = (file: string) =>
      readFileSync(join(project, 'agent-out', file), 'utf8')
        .trim()
        .split('\n');
    expect(lines('runs.jsonl')).toHaveLength(20);

    const markdown = ok(run('npx', ['spiralbench', 'report', 'agent-out', '--markdown'], project));
    expect(markdown).toMatch(/\| *agent:consumer-loop *\| *20 *\|/);

    // A replay command as the results folder prints it reproduces its run.
    const trace = JSON.parse(lines('traces.jsonl')[0]!) as {
      replay: string;
      record: { seed: number; verdict: string; tool_calls: number; model_calls: number };
    };
    // The module by its path from the folder the sweep ran in: the command runs in any checkout.
    expect(trace.replay).toContain('--agent ./build/my-agent.js');
    expect(lines('traces.jsonl').join('\n')).not.toContain(project);
    const replay = ok(run('sh', ['-c', trace.replay.replace(/^spiralbench /, 'npx spiralbench ')], project));
    expect(replay).toContain(`verdict: ${trace.record.verdict}`);
    expect(replay).toContain(`tool calls ${trace.record.tool_calls} `);
    // Its loop is its own: what it said is read off the wire, one line a reply.
    const replies = Number(/the agent's conversation, as the model last saw it \((\d+) replies\)/.exec(replay)?.[1]);
    expect(replies).toBe(trace.record.model_calls);

    // The installed CLI runs the TypeScript source as it is (through tsx) to the same runs.
    ok(
      run(
        'npx',
        [
          'spiralbench',
          'run',
          '-s',
          'fetch-transform-write',
          '-a',
          'agent:consumer-loop',
          '--agent',
          'src/my-agent.ts',
          '-n',
          '20',
          '-o',
          'agent-cli',
        ],
        project,
      ),
    );
    expect(readFileSync(join(project, 'agent-cli', 'runs.jsonl'), 'utf8')).toBe(
      readFileSync(join(project, 'agent-out', 'runs.jsonl'), 'utf8'),
    );
  });

  it('refuses internal modules: only the public surface is importable', () => {
    writeFileSync(
      join(project, 'src', 'internal.ts'),
      "import { ARM_PRESETS } from 'spiralbench/dist/arms/arms.js';\nconsole.log(ARM_PRESETS.size);\n",
    );
    writeFileSync(
      join(project, 'src', 'wrong.ts'),
      "import { toolBudget } from 'spiralbench';\nexport const guard = toolBudget({ maxToolCalls: 'fifteen' });\n",
    );
    try {
      const checked = run(process.execPath, [TSC, '-p', 'tsconfig.json', '--noEmit'], project);
      expect(checked.status).not.toBe(0);
      expect(checked.stdout).toMatch(/src\/internal\.ts.*TS2307/);
      // The declarations carry real types, not `any`.
      expect(checked.stdout).toMatch(/src\/wrong\.ts.*TS2322/);
    } finally {
      rmSync(join(project, 'src', 'internal.ts'));
      rmSync(join(project, 'src', 'wrong.ts'));
    }
    const imported = run(
      process.execPath,
      ['--input-type=module', '-e', "await import('spiralbench/dist/arms/arms.js')"],
      project,
    );
    expect(imported.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('runs the installed CLI: a sweep, its report, a replay, and the sweep read back through the API', () => {
    const sweep = ok(
      run(
        'npx',
        ['spiralbench', 'run', '-s', 'fetch-transform-write', '-a', 'none,article', '-n', '5', '-o', 'out'],
        project,
      ),
    );
    expect(sweep).toContain('fetch-transform-write');
    const markdown = ok(run('npx', ['spiralbench', 'report', 'out', '--markdown'], project));
    expect(markdown).toMatch(/\| *article *\|/);
    const replayLine = sweep.split('\n').find((line) => line.startsWith('replay a run: '));
    // Installed in the project, not on the PATH: the printed command is the one that works here.
    expect(replayLine).toMatch(/^replay a run: npx spiralbench /);
    const replayArgs = replayLine!.slice('replay a run: npx spiralbench '.length).split(' ');
    const replay = ok(run('npx', ['spiralbench', ...replayArgs], project));
    expect(replay).toContain('verdict');
    const read = JSON.parse(ok(run(process.execPath, ['build/consumer.js', 'out'], project)));
    expect(read.cells).toBe(2);
    expect(read.runs).toBe(10);
  });

  it('crashes and resumes runs with their checkpoints in a file, with nothing more installed', () => {
    ok(
      run(
        'npx',
        ['spiralbench', 'crash-resume', '-s', 'fetch-transform-write', '-n', '2', '--store', 'file', '-o', 'crash'],
        project,
      ),
    );
    expect(
      readFileSync(join(project, 'crash', 'crash-resume.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(4);
    expect(readFileSync(join(project, 'crash', 'checkpoints.jsonl'), 'utf8')).toContain('"kind":"checkpoint"');
  });
});
