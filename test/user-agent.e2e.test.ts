import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/results/run-record-schema.js';
import { BIN, cli, cliAsync, tempDir } from './cli-helpers.js';
import { startFakeProvider } from './fake-provider-server.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/agents/${name}`, import.meta.url));
const HAND_WRITTEN = fixture('hand-written-loop.ts');
const TYPED = fixture('hand-written-typed.ts');
const THROWING = fixture('throwing-agent.ts');
const TURN_LIMITED = fixture('turn-limited.ts');
/** A key that must never reach an output, a result or a log. */
const SECRET = 'sk-ant-api03-user-agent-secret-must-not-leak';

const recordsOf = (dir: string): RunRecord[] =>
  readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunRecord);

const bySeed = (records: readonly RunRecord[], arm: string) =>
  new Map(records.filter((record) => record.arm === arm).map((record) => [record.seed, record]));

/** The files of a results folder that must be the same bytes for the same sweep. */
const folderFiles = (dir: string) =>
  Object.fromEntries(
    ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'].map((file) => [
      file,
      readFileSync(join(dir, file), 'utf8'),
    ]),
  );

/** Seeds enough to meet the scenario's faults many times over, and both verdicts (checked below). */
const SEEDS = 200;

describe(`a hand-written Anthropic SDK loop as a user agent, beside peer:anthropic-tool-runner (${SEEDS} seeds, -w 2)`, () => {
  const out = tempDir();
  let records: RunRecord[] = [];

  beforeAll(async () => {
    const run = await cliAsync([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'peer:anthropic-tool-runner',
      '--agent',
      `${HAND_WRITTEN},${TYPED}`,
      '-n',
      String(SEEDS),
      '-w',
      '2',
      '-o',
      out,
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
    records = recordsOf(out);
  }, 300_000);

  it('gives the same verdict, outcome and tool calls on every seed: same faults, same judge', () => {
    const runner = bySeed(records, 'peer:anthropic-tool-runner');
    const mine = bySeed(records, 'agent:hand-written');
    expect(runner.size).toBe(SEEDS);
    expect(mine.size).toBe(SEEDS);
    for (const [seed, theirs] of runner) {
      const ours = mine.get(seed)!;
      const pick = (record: RunRecord) => [
        record.verdict,
        record.outcome,
        record.tool_calls,
        record.tool_executions,
        record.model_calls,
        record.duplicate_side_effects,
        record.faults,
      ];
      expect(pick(ours), `seed ${seed}`).toEqual(pick(theirs));
    }
    // Not a sweep where everything passes or everything fails: the verdicts carry information.
    const verdicts = new Set([...mine.values()].map((record) => record.verdict));
    expect(verdicts.size).toBeGreaterThan(1);
  });

  it("differs from the runner only by the runner's `type: 'custom'` on each tool definition: 20 input tokens a call", () => {
    // betaTool writes `"type":"custom",` into each of the scenario's tool definitions;
    // the simulated model counts the request's bytes, so each call costs the runner a
    // few more input tokens (and the model latency that goes with them), nothing else.
    const runner = bySeed(records, 'peer:anthropic-tool-runner');
    for (const [seed, ours] of bySeed(records, 'agent:hand-written')) {
      const theirs = runner.get(seed)!;
      expect(theirs.input_tokens - ours.input_tokens, `seed ${seed}`).toBe(20 * ours.model_calls);
    }
    // The same loop sending the runner's tool definitions gives the runner's records, field for field.
    const typed = bySeed(records, 'agent:hand-written-typed');
    for (const [seed, theirs] of runner) expect({ ...typed.get(seed), arm: theirs.arm }).toEqual(theirs);
  });

  it('writes the record of a built-in arm: model label, zero guard events, costs counted at the boundary', () => {
    const mine = [...bySeed(records, 'agent:hand-written').values()];
    expect(mine.every((record) => record.model === 'simulated-sdk')).toBe(true);
    expect(mine.every((record) => Object.values(record.events).every((count) => count === 0))).toBe(true);
    expect(mine.every((record) => record.input_tokens > 0 && record.virtual_ms > 0 && record.cost_usd > 0)).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      arms: Array<{ name: string; agent?: { module: string } }>;
    };
    // From the folder the sweep ran in (the CLI inherits this process's).
    expect(summary.arms.find((arm) => arm.name === 'agent:hand-written')?.agent?.module).toBe(
      `./${relative(process.cwd(), HAND_WRITTEN)}`,
    );
  });
});

describe('a user agent in the sweep machinery', () => {
  const cwd = tempDir();
  const SWEEP = [
    'run',
    '-s',
    'fetch-transform-write,lookup-readonly',
    '--agent',
    HAND_WRITTEN,
    '-a',
    'none',
    '-n',
    '30',
  ];
  const env = { ANTHROPIC_API_KEY: SECRET };

  it('-w 2 writes the same bytes as -w 1', () => {
    const one = cli([...SWEEP, '-w', '1', '-o', join(cwd, 'w1')], env);
    const two = cli([...SWEEP, '-w', '2', '-o', join(cwd, 'w2')], env);
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(folderFiles(join(cwd, 'w2'))).toEqual(folderFiles(join(cwd, 'w1')));
    expect(recordsOf(join(cwd, 'w1')).filter((record) => record.arm === 'agent:hand-written')).toHaveLength(60);
    for (const output of [one.stdout, one.stderr, two.stdout, two.stderr]) expect(output).not.toContain(SECRET);
    for (const file of Object.values(folderFiles(join(cwd, 'w1')))) expect(file).not.toContain(SECRET);
  });

  it('a sweep stopped after its first chunk resumes to the same bytes, its resume command naming the agent', async () => {
    const dir = join(cwd, 'stopped');
    mkdirSync(dir);
    const inline = [...SWEEP, '-w', '1'];
    const stopped = await interruptAfterFirstChunk(dir, inline);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/Resume with: spiralbench run .*--agent .*hand-written-loop\.ts.* --resume/);
    const resumed = cli([...inline, '-o', dir, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(folderFiles(dir)).toEqual(folderFiles(join(cwd, 'w1')));
  });

  it('the printed replay commands (after the sweep, and in the traces) run as printed', () => {
    // `-a` may name the --agent arm itself, which puts it first.
    const run = cli([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'agent:hand-written',
      '--agent',
      HAND_WRITTEN,
      '-n',
      '8',
      '-w',
      '1',
      '-o',
      join(cwd, 'replayed'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const printed = /^replay a run: (spiralbench replay .*)$/m.exec(run.stdout)?.[1];
    expect(printed).toContain(`--arm agent:hand-written --seed 1 --agent ./${relative(process.cwd(), HAND_WRITTEN)}`);
    const traces = readFileSync(join(cwd, 'replayed', 'traces.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { arm: string; replay: string; record: RunRecord });
    expect(traces.length).toBeGreaterThan(0);
    // Each replay is a process that loads the agent through tsx: the printed one and two traces' are enough.
    for (const { replay: command, record } of [{ replay: printed!, record: undefined }, ...traces.slice(0, 2)]) {
      // In the folder the sweep was started from, where the printed paths lead.
      const replay = runPrinted(command, process.cwd());
      expect(replay.status, `${command}\n${replay.stderr}`).toBe(0);
      expect(replay.stdout.trimEnd().split('\n').at(-1)).toBe(`replay: ${command}`);
      if (record === undefined) continue;
      expect(replay.stdout).toContain(`verdict: ${record.verdict} —`);
      expect(replay.stdout).toContain(`tool calls ${record.tool_calls} ·`);
    }
  });

  it('an agent that throws: outcome failed, with the error in failure_reason; the run still judged on the world; the arm called broken (exit 7)', () => {
    const run = cli([
      'run',
      '-s',
      'lookup-readonly',
      '-a',
      'none',
      '--agent',
      `${THROWING}#throwing`,
      '-n',
      '3',
      '-w',
      '1',
      '-o',
      join(cwd, 'throwing'),
      '--json',
    ]);
    // Every run fails alike with nothing injected: a broken arm, reported once, never ranked.
    expect(run.status, run.stderr).toBe(7);
    expect(run.stderr).toContain(
      'arm agent:throwing could not run: its first 3 runs that met no injected fault all failed with PlannerCrash (no HTTP status): the planner lost its state',
    );
    const failed = recordsOf(join(cwd, 'throwing')).filter((record) => record.arm === 'agent:throwing');
    expect(failed.map((record) => [record.outcome, record.verdict, record.model_calls])).toEqual([
      ['failed', 'failure', 1],
      ['failed', 'failure', 1],
      ['failed', 'failure', 1],
    ]);
    expect(failed[0]!.failure_reason).toEqual({
      error_class: 'PlannerCrash',
      status: null,
      message: 'the planner lost its state',
    });
  });

  it('an arms file names an agent by a path from its own folder, with settings its schema checks', () => {
    const dir = join(cwd, 'arms');
    mkdirSync(dir);
    const arms = (settings: string) =>
      writeFileSync(
        join(dir, 'arms.yaml'),
        `arms:\n  - { name: short, agent: ${TURN_LIMITED}, settings: ${settings} }\n`,
      );
    arms('{ maxTurns: 2 }');
    const run = cli([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'short',
      '--arms-file',
      join(dir, 'arms.yaml'),
      '-n',
      '20',
      '-w',
      '2',
      '-o',
      join(dir, 'out'),
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const records = recordsOf(join(dir, 'out'));
    expect(Math.max(...records.map((record) => record.model_calls))).toBe(2);
    expect(records.some((record) => record.outcome === 'max_iterations')).toBe(true);
    arms("{ maxTurns: 'two' }");
    const bad = cli([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'short',
      '--arms-file',
      join(dir, 'arms.yaml'),
      '-n',
      '2',
      '-o',
      join(dir, 'bad'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('settings.maxTurns');
    // A misspelt setting is refused, not run silently with the default.
    arms('{ maxTurn: 2 }');
    const typo = cli([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'short',
      '--arms-file',
      join(dir, 'arms.yaml'),
      '-n',
      '2',
      '-o',
      join(dir, 'typo'),
    ]);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/settings.*maxTurn/);
  });

  it('a bad --agent gets one clear message and exit 2: a missing file, a module without an agent', () => {
    const missing = cli([
      'run',
      '-s',
      'lookup-readonly',
      '--agent',
      './no-such-agent.ts',
      '-n',
      '2',
      '-o',
      join(cwd, 'x'),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^error: --agent: .*no-such-agent\.ts' does not/);
    const wrongExport = cli([
      'run',
      '-s',
      'lookup-readonly',
      '--agent',
      `${THROWING}#unrelated`,
      '-n',
      '2',
      '-o',
      join(cwd, 'y'),
    ]);
    expect(wrongExport.status).toBe(2);
    expect(wrongExport.stderr).toContain("an agent made with defineAgent exported as 'unrelated'");
  });
});

describe('a user agent against a real model (--model), through a stand-in server', () => {
  it('reaches the server with the key the harness adds, never the agent; the key is in no output', async () => {
    const provider = await startFakeProvider({ scenario: 'lookup-readonly' });
    try {
      const out = join(tempDir(), 'real');
      const run = await cliAsync(
        ['run', '-s', 'lookup-readonly', '-a', 'agent:hand-written', '--agent', HAND_WRITTEN, '-n', '2'].concat([
          '--model',
          'claude-haiku-4-5',
          '--base-url',
          provider.url,
          '--yes',
          '-o',
          out,
        ]),
        { ANTHROPIC_API_KEY: SECRET },
      );
      expect(run.status, run.stderr).toBe(0);
      const records = recordsOf(out);
      expect(records.map((record) => [record.arm, record.model])).toEqual([
        ['agent:hand-written', 'anthropic:claude-haiku-4-5'],
        ['agent:hand-written', 'anthropic:claude-haiku-4-5'],
      ]);
      const calls = records.reduce((sum, record) => sum + record.model_calls, 0);
      expect(calls).toBeGreaterThan(0);
      expect(provider.requests).toHaveLength(calls);
      for (const request of provider.requests) {
        expect(request.path).toBe('/v1/messages');
        expect(request.headers['x-api-key']).toBe(SECRET);
      }
      for (const output of [run.stdout, run.stderr, ...Object.values(folderFiles(out))])
        expect(output).not.toContain(SECRET);
    } finally {
      await provider.close();
    }
  });
});

/** A printed `spiralbench …` command, run by a shell in `cwd` as a user would paste it. */
function runPrinted(command: string, cwd: string) {
  expect(command).toMatch(/^spiralbench /);
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  return spawnSync('sh', ['-c', command.replace(/^spiralbench /, `'${process.execPath}' '${BIN}' `)], {
    cwd,
    encoding: 'utf8',
    env,
  });
}

/** Starts an inline sweep into `dir` and sends it Ctrl-C once progress.json shows one chunk on disk (a watch, no sleeps). */
function interruptAfterFirstChunk(
  dir: string,
  sweep: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, ...sweep, '-o', dir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
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
