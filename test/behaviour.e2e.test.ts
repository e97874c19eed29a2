import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { targetsFrom } from '../src/calibration/targets-from.js';
import { parseYamlInput } from '../src/scenarios/yaml-input.js';
import { cli, tempDir } from './cli-helpers.js';

interface Run {
  readonly arm: string;
  readonly tool_calls: number;
}

interface Group {
  readonly arm: string;
  readonly runs: number;
  readonly calls: number;
  readonly identical_consecutive: number;
  readonly after: Record<string, { n: number; identical: number | null }>;
}

function ok(args: readonly string[]): string {
  const result = cli(args);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe('spiralbench behaviour', () => {
  const dir = join(tempDir('spiralbench-behaviour-'), 'sweep');
  beforeAll(() => {
    ok(['run', '-s', 'fetch-transform-write', '-a', 'none,repeat', '-n', '20', '-o', dir]);
  });

  it('prints the next-action table per arm, from every run of the sweep run again', () => {
    const out = ok(['behaviour', dir]);
    expect(out).toContain('arm none · 20 runs');
    expect(out).toContain('arm repeat · 20 runs');
    for (const row of ['good', 'permanent', 'transient', 'malformed', 'refusal', 'error'])
      expect(out).toMatch(new RegExp(`^ {2}${row} `, 'm'));
    expect(out).toContain('identical consecutive calls:');
    expect(out).toContain('hint effect on identical retries after a permanent error:');
  });

  it('counts in --json the calls the run records count, and the repeat guard’s refusals only where it ran', () => {
    const report = JSON.parse(ok(['behaviour', dir, '--json'])) as { by: string; groups: Group[] };
    expect(report.by).toBe('arm');
    const runs = readFileSync(join(dir, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Run);
    for (const group of report.groups) {
      expect(group.runs).toBe(20);
      const recorded = runs.filter((run) => run.arm === group.arm).reduce((sum, run) => sum + run.tool_calls, 0);
      expect(group.calls).toBe(recorded);
    }
    const byArm = new Map(report.groups.map((group) => [group.arm, group]));
    expect(byArm.get('none')!.after.refusal!.n).toBe(0);
    expect(byArm.get('repeat')!.after.refusal!.n).toBeGreaterThan(0);
    // Without the guard, identical re-sends happen; the guard answers them instead of running them.
    expect(byArm.get('none')!.identical_consecutive).toBeGreaterThan(0);
  });

  it('groups by scenario or not at all', () => {
    const pooled = JSON.parse(ok(['behaviour', dir, '--by', 'none', '--json'])) as { groups: Array<{ runs: number }> };
    expect(pooled.groups.map((group) => group.runs)).toEqual([40]);
    expect(ok(['behaviour', dir, '--by', 'scenario'])).toContain('scenario fetch-transform-write · 40 runs');
  });

  it('reads a trajectory file, and names the line and field of a bad one', () => {
    const file = join(tempDir('spiralbench-behaviour-'), 'agent.jsonl');
    const call = (id: string, text: string, is_error = false) => ({
      calls: [{ name: 'get_user', input: { id }, result: is_error ? { text, is_error } : { text } }],
    });
    writeFileSync(
      file,
      `${[
        { id: 'a', turns: [call('u_1', 'Error: user not found', true), call('u_2', '{"id":"u_2"}'), { text: 'done' }] },
        { id: 'b', turns: [call('u_1', 'Error: user not found', true), call('u_1', 'Error: user not found', true)] },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n')}\n`,
    );
    const report = JSON.parse(ok(['behaviour', file, '--json'])) as { kind: string; groups: Group[] };
    expect(report.kind).toBe('trajectories');
    // a: not found → other arguments; b: not found → the identical call (b's last turn ends the run: not counted).
    expect(report.groups[0]!.after.permanent).toEqual({
      n: 2,
      identical: 0.5,
      same_tool_other_args: 0.5,
      other_tool: 0,
      stop_or_help: 0,
    });
    expect(report.groups[0]!.after.good).toEqual({
      n: 1,
      identical: 0,
      same_tool_other_args: 0,
      other_tool: 0,
      stop_or_help: 1,
    });
    writeFileSync(file, '{"id": "a", "turns": [{"calls": [{"name": "x", "input": {}}]}]}\n');
    const bad = cli(['behaviour', file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${file}:1: turns.0.calls.0.result:`);
  });

  it('refuses a sweep whose runs no longer play the same way, naming the run', () => {
    const copy = join(tempDir('spiralbench-behaviour-'), 'changed');
    cpSync(dir, copy, { recursive: true });
    const runs = join(copy, 'runs.jsonl');
    const lines = readFileSync(runs, 'utf8').split('\n');
    const run = JSON.parse(lines[2]!) as Run;
    lines[2] = JSON.stringify({ ...run, tool_calls: run.tool_calls + 1 });
    writeFileSync(runs, lines.join('\n'));
    const result = cli(['behaviour', copy]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${runs}:3: a run this version plays the same way`);
    expect(result.stderr).toContain('Run the sweep again with this version');
  });

  it('refuses a path that holds nothing, and an unknown grouping', () => {
    const missing = cli(['behaviour', join(dir, 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nothing is there');
    expect(cli(['behaviour', dir, '--by', 'member']).status).toBe(2);
    // A file with no run in it is not an empty measurement.
    for (const [name, text] of [
      ['empty.jsonl', ''],
      ['no-spans.json', '{"resourceSpans": []}'],
    ] as const) {
      const file = join(tempDir(), name);
      writeFileSync(file, text);
      const empty = cli(['behaviour', file]);
      expect(empty.status).toBe(2);
      expect(empty.stderr).toBe(`error: ${file}: runs or trajectories to measure; this holds none\n`);
    }
  });
});

describe('spiralbench calibrate --from', () => {
  // The calibrate → predict check: a bundled named persona treated as an unknown model.
  it('takes a sweep of the same task under a persona of its own, and refuses another task', async () => {
    const root = tempDir('spiralbench-from-persona-');
    const stubborn = join(root, 'stubborn');
    ok(['run', '-s', 'fetch-transform-write-stubborn', '-a', 'none', '-n', '30', '-o', stubborn]);
    const sourced = await targetsFrom(stubborn, 'fetch-transform-write');
    expect(sourced.runs).toBe(30);
    expect(sourced.described).toContain('fetch-transform-write-stubborn');
    const lookup = join(root, 'lookup');
    ok(['run', '-s', 'lookup-readonly', '-a', 'none', '-n', '5', '-o', lookup]);
    await expect(targetsFrom(lookup, 'fetch-transform-write')).rejects.toThrow(/same task under another persona/);
  });

  it("fits an ensemble to a folder it wrote itself and recovers the folder's statistics within tolerance", () => {
    const root = tempDir('spiralbench-calibrate-from-');
    const sweep = join(root, 'sweep');
    ok(['run', '-s', 'fetch-transform-write', '-a', 'none', '-n', '100', '-o', sweep]);
    const fitted = join(root, 'fitted.yaml');
    // Outcome bands wide: a p95 or a success rate of 50 runs a candidate is noisy, and the
    // behaviour shares are what this checks.
    const tolerances = {
      median_calls: 1.5,
      p95_calls: 3,
      median_input_tokens: 2,
      success: 0.3,
      identical_consecutive: 0.05,
      after_good_identical: 0.08,
      after_transient_identical: 0.08,
      long_run_repeat_share: 0.5,
    };
    const out = ok([
      'calibrate',
      '-s',
      'fetch-transform-write',
      '--from',
      sweep,
      '--members',
      '4',
      '--seeds-per-candidate',
      '50',
      '-w',
      '2',
      '--tolerance',
      Object.entries(tolerances)
        .map(([name, value]) => `${name}=${value}`)
        .join(','),
      '-o',
      fitted,
    ]);
    expect(out).toContain(`targets from arm none of fetch-transform-write in ${sweep} (100 runs):`);
    // The reference scenario has no permanent errors: the source cannot give that target, and says so.
    expect(out).toContain('after_permanent_identical: 0 turns after a permanent error; at least 20 are needed');
    const provenance = (parseYamlInput(readFileSync(fitted, 'utf8')) as { provenance: Provenance }).provenance;
    expect(Object.keys(provenance.targets).sort()).toEqual(
      [
        'after_good_identical',
        'after_transient_identical',
        'identical_consecutive',
        'long_run_repeat_share',
        'median_calls',
        'median_input_tokens',
        'p95_calls',
        'success',
      ].sort(),
    );
    // The fresh runs of the fitted members, pooled, show the folder's behaviour again.
    for (const name of [
      'identical_consecutive',
      'after_good_identical',
      'after_transient_identical',
      'success',
    ] as const) {
      const target = provenance.targets[name]!;
      expect(Math.abs(provenance.fit[name]!.pooled_fresh - target), name).toBeLessThanOrEqual(tolerances[name]);
    }
    // On the seeds they were accepted on, every member's median is in every band.
    for (const [name, target] of Object.entries(provenance.targets)) {
      const { fitting_median: median } = provenance.fit[name]!;
      const tolerance = tolerances[name as keyof typeof tolerances];
      if (['median_calls', 'p95_calls', 'median_input_tokens'].includes(name))
        expect(Math.max(median / target, target / median), name).toBeLessThanOrEqual(tolerance);
      else expect(Math.abs(median - target), name).toBeLessThanOrEqual(tolerance);
    }
    // The line that fits it again names the targets --from computed, not the folder.
    expect(provenance.command).toContain('--target median_calls=');
    expect(provenance.command).toContain('identical_consecutive=');
  });
});

interface Provenance {
  readonly command: string;
  readonly targets: Record<string, number>;
  readonly fit: Record<string, { readonly pooled_fresh: number; readonly fitting_median: number }>;
}
