import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from './cli-helpers.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const dist = (path: string) => JSON.stringify(join(REPO, 'dist', path));

function run(args: readonly string[], cwd: string) {
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env });
}

describe("a user's code that fails while a sweep runs", () => {
  const cwd = tempDir('user-code-');
  beforeAll(() => {
    symlinkSync(join(REPO, 'node_modules'), join(cwd, 'node_modules'));
    writeFileSync(
      join(cwd, 'boom.ts'),
      `import { defineGuard } from ${dist('loop/define-guard.js')};
import { z } from 'zod';
export default defineGuard({
  name: 'boom',
  settings: z.object({}),
  build: () => ({ name: 'boom', beforeToolCall: () => { throw new Error('hook boom'); } }),
});
`,
    );
    writeFileSync(join(cwd, 'arms.yaml'), 'arms:\n  - name: broken\n    guards: [{ guard: ./boom.ts }]\n');
    // Loads in the main thread, fails in a worker thread (a dependency only one of them has, say).
    writeFileSync(
      join(cwd, 'worker-only.ts'),
      `import { isMainThread } from 'node:worker_threads';
import { defineAgent } from ${dist('agents/define-agent.js')};
if (!isMainThread) throw new Error('cannot load here');
export default defineAgent({ name: 'fragile', run: async () => 'done' });
`,
    );
    // Each ends the process with a success code: at import, in a run, in a tool, in a guard's hook.
    writeFileSync(join(cwd, 'exit-at-load.mjs'), 'process.exit(0);\n');
    writeFileSync(
      join(cwd, 'exit-in-run.ts'),
      `import { defineAgent } from ${dist('agents/define-agent.js')};
export default defineAgent({ name: 'quitter', run: async () => { process.exit(0); } });
`,
    );
    writeFileSync(
      join(cwd, 'exit-guard.ts'),
      `import { defineGuard } from ${dist('loop/define-guard.js')};
import { z } from 'zod';
export default defineGuard({
  name: 'quit',
  settings: z.object({}),
  build: () => ({ name: 'quit', beforeToolCall: () => { process.exit(0); } }),
});
`,
    );
    // Top-level awaits that never settle: nothing left to settle one, or a timer keeping the thread busy.
    writeFileSync(join(cwd, 'never-loads.mjs'), 'await new Promise(() => {});\nexport default 1;\n');
    writeFileSync(
      join(cwd, 'busy-loads.mjs'),
      'await new Promise(() => setInterval(() => {}, 1000));\nexport default 1;\n',
    );
    // A configuration error: every run throws the same before its first model call.
    writeFileSync(
      join(cwd, 'misconfigured.ts'),
      `import { defineAgent } from ${dist('agents/define-agent.js')};
export default defineAgent({ name: 'misconfigured', run: async () => { throw new TypeError('model id is not set'); } });
`,
    );
    // Ends the process through the runtime's own exit, under process.exit.
    writeFileSync(
      join(cwd, 'really-exit.ts'),
      `import { defineAgent } from ${dist('agents/define-agent.js')};
export default defineAgent({ name: 'reallyquits', run: async () => { (process as any).reallyExit(0); return 'done'; } });
`,
    );
    // Says success as the process ends, whatever the harness decided; every run throws.
    writeFileSync(
      join(cwd, 'exit-hook.ts'),
      `import { defineAgent } from ${dist('agents/define-agent.js')};
process.on('exit', () => { process.exitCode = 0; });
export default defineAgent({ name: 'exithook', run: async () => { throw new Error('always broken'); } });
`,
    );
    writeFileSync(
      join(cwd, 'exit-hook-really.ts'),
      `import { defineAgent } from ${dist('agents/define-agent.js')};
process.on('exit', () => { (process as any).reallyExit(0); });
export default defineAgent({ name: 'exithook', run: async () => { throw new Error('always broken'); } });
`,
    );
    writeFileSync(join(cwd, 'quit-arms.yaml'), 'arms:\n  - name: quits\n    guards: [{ guard: ./exit-guard.ts }]\n');
    writeFileSync(
      join(cwd, 'stuck.ts'),
      `import { defineAgent } from ${dist('agents/define-agent.js')};
export default defineAgent({ name: 'stuck', run: () => new Promise<string>(() => {}) });
`,
    );
  });

  it('an agent awaiting a promise nothing can settle (-w 1): exit 3 naming the arm, scenario and seed; the lock released', () => {
    const sweep = run(
      [
        'run',
        '-s',
        'lookup-readonly',
        '-a',
        'agent:stuck',
        '--agent',
        './stuck.ts',
        '-n',
        '3',
        '-w',
        '1',
        '-o',
        'stuck',
      ],
      cwd,
    );
    expect(sweep.status, sweep.stderr).toBe(3);
    expect(sweep.stderr).toContain('run stalled: arm agent:stuck, scenario lookup-readonly, seed 1');
    expect(existsSync(join(cwd, 'stuck/spiralbench.lock'))).toBe(false);
  });

  it('a user guard whose hook throws: its runs fail naming the guard, and the arm stops the sweep with exit 7 (-w 2)', () => {
    const sweep = run(
      [
        'run',
        '-s',
        'fetch-transform-write',
        '-a',
        'none,broken',
        '--arms-file',
        'arms.yaml',
        '-n',
        '6',
        '-w',
        '2',
        '-o',
        'out',
      ],
      cwd,
    );
    // Every run of the arm failed the same way, no fault injected: a broken arm, not a result to rank.
    expect(sweep.status, sweep.stderr).toBe(7);
    expect(sweep.stderr).toContain(
      "arm broken could not run: its first 3 runs that met no injected fault all failed with GuardThrew (no HTTP status): guard 'boom' threw: hook boom",
    );
    expect(sweep.stderr.split('hook boom')).toHaveLength(2); // said once
    expect(sweep.stdout).not.toMatch(/Recommended|Tightest tail/);
    const runs = readFileSync(join(cwd, 'out/runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { arm: string; outcome: string; failure_reason?: { message: string } });
    const broken = runs.filter((record) => record.arm === 'broken');
    expect(broken).toHaveLength(6);
    for (const record of broken) {
      expect(record.outcome).toBe('failed');
      expect(record.failure_reason?.message).toBe("guard 'boom' threw: hook boom");
    }
    expect(runs.filter((record) => record.arm === 'none').every((record) => record.outcome !== 'failed')).toBe(true);
  });

  it('an agent module that fails to import only in a worker thread: exit 2, naming the module; no lock left', () => {
    const sweep = run(
      ['run', '-s', 'lookup-readonly', '-a', 'none', '--agent', './worker-only.ts', '-n', '4', '-w', '2', '-o', 'w'],
      cwd,
    );
    expect(sweep.status, sweep.stderr).toBe(2);
    expect(sweep.stderr).toContain('worker-only.ts');
    expect(sweep.stderr).toContain('cannot load here');
    expect(sweep.stderr).not.toContain('unexpected error');
    expect(existsSync(join(cwd, 'w/spiralbench.lock'))).toBe(false);
  });

  /** A sweep of lookup-readonly, 4 seeds, into `name` (arm none unless `args` names arms). */
  const sweep = (name: string, args: readonly string[]) =>
    run(
      ['run', '-s', 'lookup-readonly', '-n', '4', '-o', name, ...(args.includes('-a') ? [] : ['-a', 'none']), ...args],
      cwd,
    );

  describe('user code that calls process.exit(0) never ends the harness with a success code', () => {
    // A CI gate (--check) must not pass because the agent ended the process: exit 6, the call named.
    it.each([
      ['at import, -w 1', ['--agent', './exit-at-load.mjs', '-w', '1'], 'loading'],
      ['at import, -w 2', ['--agent', './exit-at-load.mjs', '-w', '2'], 'loading'],
      [
        'in a run, -w 1',
        ['--agent', './exit-in-run.ts', '-w', '1'],
        'arm agent:quitter, scenario lookup-readonly, seed 1',
      ],
      ['in a run, -w 2', ['--agent', './exit-in-run.ts', '-w', '2'], 'arm agent:quitter, scenario lookup-readonly'],
      ['by reallyExit, -w 1', ['--agent', './really-exit.ts', '-w', '1'], 'arm agent:reallyquits'],
      ['by reallyExit, -w 2', ['--agent', './really-exit.ts', '-w', '2'], 'arm agent:reallyquits'],
      [
        'in a guard, -w 1',
        ['-a', 'quits', '--arms-file', 'quit-arms.yaml', '-w', '1'],
        'arm quits, scenario lookup-readonly',
      ],
      [
        'in a guard, -w 2',
        ['-a', 'quits', '--arms-file', 'quit-arms.yaml', '-w', '2'],
        'arm quits, scenario lookup-readonly',
      ],
    ])('%s: exit 6 naming where, even with --check', (label, args, where) => {
      if (!existsSync(join(cwd, 'base'))) expect(sweep('base', ['-w', '1']).status).toBe(0);
      const result = sweep(`exit-${label.replace(/\W+/g, '-')}`, [...args, '--check', 'base']);
      expect(result.status, result.stderr).toBe(6);
      expect(result.stderr).toContain('called process.exit(0)');
      expect(result.stderr).toContain(where);
      expect(result.stdout).not.toContain('No regression');
    });
  });

  it.each([
    ['exit-hook.ts', '-w', '1'],
    ['exit-hook.ts', '-w', '2'],
    ['exit-hook-really.ts', '-w', '1'],
  ])(
    "an agent's 'exit' listener cannot set the exit code: a broken arm under --check still exits 7 (%s %s %s)",
    (module, ...workers) => {
      if (!existsSync(join(cwd, 'base'))) expect(sweep('base', ['-w', '1']).status).toBe(0);
      const result = sweep(`hook-${module}-${workers[1]}`, ['--agent', `./${module}`, ...workers, '--check', 'base']);
      expect(result.stderr).toContain('arm agent:exithook could not run');
      expect(result.status).toBe(7);
    },
  );

  it('an agent module whose top-level await can never settle: exit 2 and one sentence naming it, at once', () => {
    const started = process.hrtime.bigint();
    const result = run(
      ['run', '-s', 'lookup-readonly', '-a', 'none', '--agent', './never-loads.mjs', '-n', '2', '-o', 'nl'],
      cwd,
    );
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /--agent: a module that loads; '.*never-loads\.mjs' did not finish loading: its top-level await can never settle/,
    );
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(60);
  });

  it('an agent module whose top-level await outlasts SPIRALBENCH_MODULE_LOAD_TIMEOUT: exit 2 naming the limit', () => {
    const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
    const result = spawnSync(
      process.execPath,
      [BIN, 'run', '-s', 'lookup-readonly', '-a', 'none', '--agent', './busy-loads.mjs', '-n', '2', '-o', 'bl'],
      { cwd, encoding: 'utf8', env: { ...env, SPIRALBENCH_MODULE_LOAD_TIMEOUT: '1' }, timeout: 30_000 },
    );
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      'did not finish loading within 1 s (SPIRALBENCH_MODULE_LOAD_TIMEOUT sets the limit)',
    );
  });

  it('an agent arm whose every run fails with one error before any reply: exit 7, the reason said once, the sweep stopped', () => {
    const result = run(
      [
        'run',
        '-s',
        'fetch-transform-write,lookup-readonly',
        '-a',
        'none',
        '--agent',
        './misconfigured.ts',
        '-n',
        '300',
        '-w',
        '1',
        '-o',
        'mis',
      ],
      cwd,
    );
    expect(result.status, result.stderr).toBe(7);
    expect(result.stderr).toContain(
      'arm agent:misconfigured could not run: its first 3 runs that met no injected fault all failed with TypeError (no HTTP status): model id is not set',
    );
    expect(result.stderr.split('model id is not set')).toHaveLength(2);
    expect(result.stdout).not.toMatch(/Recommended|Tightest tail/);
    // Stopped at the arm's first chunk: the other scenario's cells never ran.
    const lines = readFileSync(join(cwd, 'mis/runs.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(1200);
    expect(existsSync(join(cwd, 'mis/spiralbench.lock'))).toBe(false);
  });
});
