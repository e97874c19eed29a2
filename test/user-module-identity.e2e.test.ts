import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from './cli-helpers.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** A user's agent: one tool call, then an answer that `mark` makes its own. */
const agentText = (
  mark: string,
) => `import { defineAgent } from ${JSON.stringify(join(REPO, 'dist/agents/define-agent.js'))};
export default defineAgent({
  name: 'tiny',
  async run({ tools }) {
    try { await tools.call(tools.anthropic[0].name, {}); } catch {}
    return ${JSON.stringify(mark)};
  },
});
`;

/** A user's project: node_modules, an agent, the example guard and an arms file naming it. */
function project(mark = 'done'): string {
  const cwd = tempDir('user-module-');
  symlinkSync(join(REPO, 'node_modules'), join(cwd, 'node_modules'));
  mkdirSync(join(cwd, 'agents'));
  mkdirSync(join(cwd, 'guards'));
  writeFileSync(join(cwd, 'agents/tiny.ts'), agentText(mark));
  const guard = readFileSync(join(REPO, 'examples/my-agent-project/guards/search-cap.ts'), 'utf8');
  writeFileSync(
    join(cwd, 'guards/search-cap.ts'),
    guard.replace("from 'spiralbench'", `from ${JSON.stringify(join(REPO, 'dist/loop/define-guard.js'))}`),
  );
  writeFileSync(
    join(cwd, 'arms.yaml'),
    'arms:\n  - name: capped\n    guards: [{ guard: ./guards/search-cap.ts, maxSearches: 0 }]\n',
  );
  return cwd;
}

const env = () => {
  const { ANTHROPIC_API_KEY: _key, ...rest } = process.env;
  return rest;
};

function run(args: readonly string[], cwd: string) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: env() });
}

const SWEEP = [
  'run',
  '-s',
  'fetch-transform-write',
  '-a',
  'none,capped',
  '--arms-file',
  'arms.yaml',
  '--agent',
  './agents/tiny.ts',
  '-n',
  '12',
  '-w',
  '1',
];

describe('user agent and guard modules in results', () => {
  let a: string;
  let b: string;
  beforeAll(() => {
    a = project();
    b = project();
    expect(run([...SWEEP, '--shard', '1/2', '-o', 's1'], a).status).toBe(0);
    expect(run([...SWEEP, '--shard', '2/2', '-o', 's2'], b).status).toBe(0);
  });

  it('records them by their path from the working directory and the sha256 of their text: no machine path in any file', () => {
    const summary = JSON.parse(readFileSync(join(a, 's1/summary.json'), 'utf8')) as {
      arms: Array<{ name: string; guards: Array<Record<string, unknown>>; agent?: Record<string, unknown> }>;
    };
    expect(summary.arms.find((arm) => arm.name === 'agent:tiny')?.agent).toEqual({
      kind: 'module',
      module: './agents/tiny.ts',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      settings: {},
    });
    expect(summary.arms.find((arm) => arm.name === 'capped')?.guards[0]).toMatchObject({
      guard: 'search-cap',
      module: './guards/search-cap.ts',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (const file of ['summary.json', 'traces.jsonl', 'runs.jsonl'])
      expect(readFileSync(join(a, 's1', file), 'utf8'), file).not.toContain(a);
  });

  it('merges shards run from two checkouts of the same project', () => {
    const merged = run(['merge', join(a, 's1'), join(b, 's2'), '-o', join(a, 'merged')], a);
    expect(merged.status, merged.stderr).toBe(0);
    for (const file of ['summary.json', 'traces.jsonl'])
      expect(readFileSync(join(a, 'merged', file), 'utf8'), file).not.toMatch(new RegExp(`${a}|${b}`));
    // The traces' replay commands name the agent as it was typed, and paste into either checkout.
    const replays = readFileSync(join(a, 'merged/traces.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { replay: string }).replay);
    const agent = replays.find((command) => command.includes('--arm agent:tiny'));
    expect(agent).toMatch(/ --agent \.\/agents\/tiny\.ts$/);
    const replayed = spawnSync('sh', ['-c', agent!.replace(/^spiralbench /, `'${process.execPath}' '${BIN}' `)], {
      cwd: b,
      encoding: 'utf8',
      env: env(),
    });
    expect(replayed.status, replayed.stderr).toBe(0);
  });

  it("refuses to merge a shard whose agent's text differs, naming the module", () => {
    const c = project('edited');
    expect(run([...SWEEP, '--shard', '2/2', '-o', 's2'], c).status).toBe(0);
    const merged = run(['merge', join(a, 's1'), join(c, 's2'), '-o', join(a, 'mixed')], a);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toMatch(
      /the text of its agent or guard modules differs: agent:tiny: \.\/agents\/tiny\.ts \(sha256/,
    );
    expect(existsSync(join(a, 'mixed/runs.jsonl'))).toBe(false);
  });

  it('refuses to resume over an edited file the agent imports, naming that file', async () => {
    const cwd = project();
    // The agent's answer comes from a helper it imports: editing the helper changes the agent.
    const withHelper = (mark: string) => {
      writeFileSync(join(cwd, 'agents/mark.mjs'), `export const mark = ${JSON.stringify(mark)};\n`);
      writeFileSync(join(cwd, 'agents/helper.ts'), "export { mark } from './mark.mjs';\n");
    };
    withHelper('done');
    writeFileSync(
      join(cwd, 'agents/tiny.ts'),
      agentText('done')
        .replace('import { defineAgent }', "import { mark } from './helper.js';\nimport { defineAgent }")
        .replace('return "done"', 'return mark'),
    );
    const sweep = [
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'agent:tiny',
      '--agent',
      './agents/tiny.ts',
      '-n',
      '750',
      '-w',
      '1',
    ];
    const stopped = await interruptAfterFirstChunk(cwd, 'out', sweep);
    expect(stopped.code, stopped.stderr).toBe(130);
    const summary = JSON.parse(readFileSync(join(cwd, 'out/progress.json'), 'utf8')) as {
      sweep: { arms: Array<{ agent?: { imports?: Record<string, string> } }> };
    };
    expect(Object.keys(summary.sweep.arms[0]?.agent?.imports ?? {})).toEqual([
      './agents/helper.ts',
      './agents/mark.mjs',
    ]);
    withHelper('edited');
    const mixed = run([...sweep, '-o', 'out', '--resume'], cwd);
    expect(mixed.status, mixed.stderr).toBe(2);
    expect(mixed.stderr).toMatch(
      /changed since: agent:tiny: \.\/agents\/mark\.mjs, imported by \.\/agents\/tiny\.ts \(sha256/,
    );
    withHelper('done');
    const resumed = run([...sweep, '-o', 'out', '--resume'], cwd);
    expect(resumed.status, resumed.stderr).toBe(0);
  }, 120_000);

  it('refuses to resume over an edited agent module, naming it; resumes once it is restored', async () => {
    const cwd = project();
    const sweep = [
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'agent:tiny',
      '--agent',
      './agents/tiny.ts',
      '-n',
      '750',
      '-w',
      '1',
    ];
    const stopped = await interruptAfterFirstChunk(cwd, 'out', sweep);
    expect(stopped.code, stopped.stderr).toBe(130);
    writeFileSync(join(cwd, 'agents/tiny.ts'), agentText('edited'));
    const mixed = run([...sweep, '-o', 'out', '--resume'], cwd);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(
      /sweep\.arms: the agent and guard modules the interrupted sweep ran, unchanged; changed since: agent:tiny: \.\/agents\/tiny\.ts/,
    );
    writeFileSync(join(cwd, 'agents/tiny.ts'), agentText('done'));
    const resumed = run([...sweep, '-o', 'out', '--resume'], cwd);
    expect(resumed.status, resumed.stderr).toBe(0);
  });
});

/** Starts an inline sweep into `cwd/out` and sends it Ctrl-C once progress.json shows one chunk on disk (a watch, no sleeps). */
function interruptAfterFirstChunk(
  cwd: string,
  out: string,
  sweep: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  const dir = join(cwd, out);
  mkdirSync(dir);
  const child = spawn(process.execPath, [BIN, ...sweep, '-o', out], {
    cwd,
    env: env(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  let sent = false;
  const watcher = watch(dir, () => {
    if (sent || !existsSync(join(dir, 'progress.json'))) return;
    try {
      if ((JSON.parse(readFileSync(join(dir, 'progress.json'), 'utf8')) as { chunks_done: number }).chunks_done < 1)
        return;
    } catch {
      return; // caught between the rename and the read: the next event reads it
    }
    sent = true;
    child.kill('SIGINT');
  });
  return new Promise((done) =>
    child.on('exit', (code) => {
      watcher.close();
      done({ code, stderr });
    }),
  );
}
