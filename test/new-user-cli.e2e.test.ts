import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from './cli-helpers.js';

// What a new user meets first at the command line: a mistyped flag, scenario or arm is
// named with the closest known name; list, replay and report print JSON for scripts; and
// the commands spiralbench prints are the ones their install can run.

describe('a mistyped name is named, with the closest known one', () => {
  it('an unknown flag is refused before a missing required one', () => {
    const result = cli(['run', '--seed-count', '5']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown option '--seed-count' (did you mean '--seeds'?)");
    expect(result.stderr).not.toContain('required option');
  });

  it('an unknown --flag=value is named without its value', () => {
    const result = cli(['replay', '-s', 'fetch-transform-write', '--arm', 'none', '--seed', '1', '--sweepseed=3']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown option '--sweepseed' (did you mean '--sweep-seed'?)");
  });

  it('a help flag still shows the help', () => {
    const result = cli(['run', '--seed-count', '5', '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--scenarios <ids>');
  });

  it('a mistyped scenario gets "did you mean"', () => {
    const result = cli(['run', '-s', 'fetch-transform-wrte', '-n', '1']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("got 'fetch-transform-wrte' (did you mean 'fetch-transform-write'?)");
  });

  it('a mistyped arm gets "did you mean", in run and in replay', () => {
    const run = cli(['run', '-s', 'fetch-transform-write', '-a', 'none,articel', '-n', '1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("unknown: articel (did you mean 'article'?)");
    const replay = cli(['replay', '-s', 'fetch-transform-write', '--arm', 'articel', '--seed', '1']);
    expect(replay.status).toBe(2);
    expect(replay.stderr).toContain("unknown: articel (did you mean 'article'?)");
  });
});

describe('--json for list, replay and report', () => {
  const out = tempDir();

  beforeAll(() => {
    const run = cli(['run', '-s', 'lookup-readonly', '-a', 'none,article', '-n', '4', '-w', '1', '-o', out]);
    expect(run.status, run.stderr).toBe(0);
  });

  it('list --json: every bundled scenario, arm, guard and peer', () => {
    const result = cli(['list', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const list = JSON.parse(result.stdout);
    expect(list.version).toBe(1);
    expect(list.scenarios).toContainEqual(
      expect.objectContaining({
        id: 'fetch-transform-write',
        api: 'anthropic',
        budget_class: 'standard',
        tools: expect.arrayContaining(['get_user']),
      }),
    );
    expect(list.arms.map((arm: { name: string }) => arm.name)).toEqual(expect.arrayContaining(['none', 'article']));
    expect(list.arm_groups).toContainEqual(expect.objectContaining({ name: 'ablation' }));
    expect(list.guards[0]).toEqual({
      name: expect.any(String),
      defaults: expect.any(Object),
      events: expect.any(Array),
    });
    expect(list.peers[0]).toEqual({
      arm: expect.any(String),
      title: expect.any(String),
      missing: expect.any(Array),
      install: null,
    });
  });

  it('replay --json: the record is the line runs.jsonl holds for that run, with events, messages and world', () => {
    const result = cli(['replay', '-s', 'lookup-readonly', '--arm', 'article', '--seed', '2', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const replay = JSON.parse(result.stdout);
    const stored = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((record) => record.arm === 'article' && record.seed === 2);
    expect(replay).toMatchObject({ version: 1, rerun: true, replay: expect.stringMatching(/^spiralbench replay /) });
    expect(replay.record).toEqual(stored);
    expect(replay.messages[0]).toMatchObject({ role: 'user' });
    expect(replay.events.length).toBeGreaterThan(0);
    expect(replay.world).toHaveProperty('outbox');
  });

  it('replay --results --json: a recorded run, not run again', () => {
    const result = cli(['replay', '--results', out, '-s', 'lookup-readonly', '--arm', 'none', '--seed', '1', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const replay = JSON.parse(result.stdout);
    expect(replay).toMatchObject({ version: 1, rerun: false, replay: null, record: { arm: 'none', seed: 1 } });
  });

  it('replay --results: the run of the scenario named, by id or file, and the sweep seed checked', () => {
    const two = join(tempDir(), 'two');
    const ran = cli(['run', '-s', 'fetch-transform-write,lookup-readonly', '-a', 'none', '-n', '2', '-o', two]);
    expect(ran.status, ran.stderr).toBe(0);
    const recorded = (...args: string[]) =>
      cli(['replay', '--results', two, '--arm', 'none', '--seed', '1', '--json', ...args]);
    for (const scenario of ['lookup-readonly', 'scenarios/lookup-readonly.yaml', 'fetch-transform-write']) {
      const result = recorded('-s', scenario);
      expect(result.status, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).record.scenario).toBe(scenario.replace(/^scenarios\/|\.yaml$/g, ''));
    }
    expect(recorded('-s', 'lookup-readonli').stderr).toMatch(
      /^error: --scenario: a scenario of the sweep in .*\(did you mean 'lookup-readonly'\?\)/,
    );
    expect(recorded('-s', 'lookup-readonly', '--sweep-seed', '4').stderr).toMatch(
      /^error: --sweep-seed: 4: 0, the sweep seed of /,
    );
    expect(recorded('-s', 'lookup-readonly', '--sweep-seed', '0').status).toBe(0);
    // Named by a file that is gone: the run is what the sweep recorded, not the file.
    const gone = recorded('-s', join(tempDir(), 'moved', 'lookup-readonly.yaml'));
    expect(gone.status, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout).record.scenario).toBe('lookup-readonly');
  });

  it('report --json: the headline per scenario and arm, and nothing else on stdout', () => {
    const result = cli(['report', out, '--json']);
    expect(result.status, result.stderr).toBe(0);
    // The other files only when asked for: no HTML report beside it.
    expect(result.stderr).not.toMatch(/^html: /m);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ version: 1, sweep: expect.any(String) });
    const [scenario] = report.scenarios;
    expect(scenario).toMatchObject({ id: 'lookup-readonly', impossible: false, baseline_arm: 'none' });
    expect(scenario.arms.map((arm: { arm: string }) => arm.arm)).toEqual(['none', 'article']);
    expect(scenario.arms[0]).toMatchObject({
      runs: 4,
      rate: { rate: expect.any(Number), low: expect.any(Number), high: expect.any(Number) },
      vs_baseline: null,
      tool_calls: { median: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
    });
    expect(scenario.arms[1].vs_baseline).toEqual({
      estimate: expect.any(Number),
      low: expect.any(Number),
      high: expect.any(Number),
    });
  });

  it('report --json refuses a second document on stdout', () => {
    const result = cli(['report', out, '--json', '--markdown']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--markdown and --json would both print there');
  });
});

describe('printed commands are the ones the install can run', () => {
  it('from a project install (node_modules/.bin) they start with npx spiralbench', () => {
    const project = tempDir();
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    const bin = join(project, 'node_modules', '.bin', 'spiralbench');
    symlinkSync(BIN, bin);
    const local = spawnSync(process.execPath, [bin, 'run', '-s', 'lookup-readonly', '-a', 'none', '-n', '1'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(local.status, local.stderr).toBe(0);
    expect(local.stdout).toContain('replay a run: npx spiralbench replay --scenario lookup-readonly');
  });

  it('from a clone or a global install they start with spiralbench', () => {
    const clone = cli(['run', '-s', 'lookup-readonly', '-a', 'none', '-n', '1', '-o', tempDir()]);
    expect(clone.stdout).toContain('replay a run: spiralbench replay --scenario lookup-readonly');
  });
});
