import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEnsemble } from '../src/scenarios/persona-ensemble.js';
import { parseYamlInput } from '../src/scenarios/yaml-input.js';
import { cli, cliAsync, tempDir } from './cli-helpers.js';

const FILES = ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'];
const SWEEP = [
  'run',
  '--scenarios',
  'fetch-transform-write,fetch-transform-write-stubborn',
  '--arms',
  'none,article',
  '--seeds',
  '60',
  '--ensemble',
  'default',
  '--json',
];

interface Record {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly tool_calls: number;
  readonly member?: number;
}

const records = (dir: string): Record[] =>
  readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record);

function ok(args: readonly string[]): string {
  const result = cli(args);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

async function okAsync(args: readonly string[]): Promise<string> {
  const result = await cliAsync(args);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe('run --ensemble', () => {
  const root = tempDir();
  const dir = (name: string) => join(root, name);
  const members = loadEnsemble('default').members.length;

  beforeAll(async () => {
    await okAsync([...SWEEP, '-w', '1', '-o', dir('w1')]);
    await okAsync([...SWEEP, '-w', '2', '-o', dir('w2')]);
    await okAsync([...SWEEP, '-w', '2', '--shard', '1/2', '-o', dir('s1')]);
    await okAsync([...SWEEP, '-w', '1', '--shard', '2/2', '-o', dir('s2')]);
    await okAsync(['merge', dir('s1'), dir('s2'), '-o', dir('merged')]);
  });

  it('writes the same bytes with 1 or 2 workers and as two merged shards', () => {
    for (const file of FILES) {
      const reference = readFileSync(join(dir('w1'), file), 'utf8');
      expect(readFileSync(join(dir('w2'), file), 'utf8'), `${file} -w 2`).toBe(reference);
      expect(readFileSync(join(dir('merged'), file), 'utf8'), `${file} merged`).toBe(reference);
    }
  });

  it('plays run seed s by member (s - 1) mod M in every arm; a scenario with its own persona keeps it', () => {
    const runs = records(dir('w1'));
    const reference = runs.filter((run) => run.scenario === 'fetch-transform-write');
    expect(reference).toHaveLength(120);
    for (const run of reference) expect(run.member).toBe((run.seed - 1) % members);
    const stubborn = runs.filter((run) => run.scenario === 'fetch-transform-write-stubborn');
    expect(stubborn).toHaveLength(120);
    expect(stubborn.every((run) => !('member' in run))).toBe(true);
    // The member is the last field, after every field a sweep without an ensemble writes.
    const line = readFileSync(join(dir('w1'), 'runs.jsonl'), 'utf8').split('\n')[0]!;
    expect(line.endsWith(`,"member":0}`)).toBe(true);
    const summary = JSON.parse(readFileSync(join(dir('w1'), 'summary.json'), 'utf8')) as Readonly<
      Record & { ensemble: unknown; conclusions: { members: number; cells: unknown[] } }
    >;
    // The ensemble follows every field a sweep without one writes; only the run's conclusions come after it.
    expect(Object.keys(summary).slice(-2)).toEqual(['ensemble', 'conclusions']);
    expect(summary.conclusions.cells).toHaveLength(2);
    const bytes = readFileSync(new URL('../scenarios/ensembles/default.yaml', import.meta.url));
    expect(summary.ensemble).toEqual({
      name: 'default',
      members,
      hash: createHash('sha256').update(bytes).digest('hex'),
    });
  });

  it('members change what happens: the ensemble is not the default persona under another name', () => {
    const plain = tempDir();
    ok(['run', '-s', 'fetch-transform-write', '-a', 'none', '-n', '60', '-w', '1', '-o', plain, '--json']);
    const without = records(plain);
    expect(without.every((run) => !('member' in run))).toBe(true);
    const withEnsemble = records(dir('w1')).filter(
      (run) => run.scenario === 'fetch-transform-write' && run.arm === 'none',
    );
    expect(withEnsemble.map((run) => run.tool_calls)).not.toEqual(without.map((run) => run.tool_calls));
  });

  it("a trace's replay command replays its run, played by its member", () => {
    const trace = JSON.parse(readFileSync(join(dir('w1'), 'traces.jsonl'), 'utf8').split('\n')[0]!) as {
      replay: string;
      record: Record;
    };
    expect(trace.replay).toContain(`--ensemble default --member ${trace.record.member}`);
    const words = trace.replay.split(' ').slice(1);
    const out = ok(words);
    expect(out).toContain(`persona: member ${trace.record.member} of ensemble default`);
    expect(out).toMatch(new RegExp(`tool calls ${trace.record.tool_calls} ·`));
  });

  it('refuses a bad ensemble file, naming the file, the member and the field', () => {
    const path = join(tempDir(), 'bad.yaml');
    const text = readFileSync(new URL('../scenarios/ensembles/default.yaml', import.meta.url), 'utf8');
    const members = text.split('\n  - id: ');
    members[3] = members[3]!.replace(/persistence: [0-9.]+,/, 'persistence: 2,');
    writeFileSync(path, members.join('\n  - id: '));
    const result = cli(['run', '-s', 'fetch-transform-write', '-n', '2', '--ensemble', path, '-o', tempDir()]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`error: ${path}: members.2.detour.persistence: Too big: expected number to be <=1\n`);
    const missing = cli(['run', '-s', 'fetch-transform-write', '-n', '2', '--ensemble', 'nope.yaml', '-o', tempDir()]);
    expect(missing.stderr).toBe('error: nope.yaml: file not found or not readable\n');
    const mistyped = cli(['run', '-s', 'fetch-transform-write', '-n', '2', '--ensemble', 'defualt', '-o', tempDir()]);
    expect(mistyped.stderr).toMatch(
      /^error: --ensemble: 'default' or an ensemble file .* \(did you mean 'default'\?\)\n$/,
    );
  });
});

describe('arena --ensemble', () => {
  it('pairs every arm, peer frameworks included, with the same member at each seed', () => {
    const out = tempDir();
    ok(['arena', '-s', 'fetch-transform-write', '-n', '3', '-w', '1', '--ensemble', 'default', '-o', out]);
    const runs = records(out);
    expect(runs.some((run) => run.arm.startsWith('peer:'))).toBe(true);
    for (const run of runs) expect(run.member).toBe(run.seed - 1);
  });
});

describe('calibrate', () => {
  const CALIBRATE = [
    'calibrate',
    '--scenario',
    'fetch-transform-write',
    '--target',
    'median_calls=12,p95_calls=89,success=0.64,median_input_tokens=18400',
    '--members',
    '6',
    '--seeds-per-candidate',
    '30',
  ];

  it('writes the same bytes for the same command, with 1 or 2 workers, and the file runs', () => {
    const [a, b] = [join(tempDir(), 'a.yaml'), join(tempDir(), 'b.yaml')];
    const summary = ok([...CALIBRATE, '-w', '1', '--out', a]);
    ok([...CALIBRATE, '-w', '2', '--out', b]);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    const file = parseYamlInput(readFileSync(a, 'utf8')) as { provenance: { command: string }; members: unknown[] };
    expect(file.members).toHaveLength(6);
    expect(file.provenance.command).toBe(
      'spiralbench calibrate --scenario fetch-transform-write --target median_calls=12,p95_calls=89,success=0.64,median_input_tokens=18400 --members 6 --seed 1 --seeds-per-candidate 30',
    );
    expect(summary).toMatch(/^Fitted 6 personas to fetch-transform-write \(arm none\)/);
    expect(summary).toMatch(/acceptance rate \d+\.\d\d% \(6 members of \d+ candidates\)/);
    expect(summary).toMatch(/\nsuccess +0\.64 +0\.55–0\.73 /);
    expect(summary).toMatch(/\nhelp\.probability +prior +0–1 /);
    expect(summary).toContain('their posterior is their prior');
    const out = tempDir();
    ok(['run', '-s', 'fetch-transform-write', '-a', 'none', '-n', '12', '--ensemble', a, '-o', out, '--json']);
    expect(records(out).map((run) => run.member)).toEqual([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]);
  });

  it('refuses, before any fit, to replace a file or to write into the bundled ensembles, unless --overwrite', () => {
    const out = join(tempDir(), 'mine.yaml');
    writeFileSync(out, 'my notes\n');
    const quick = ['calibrate', '-s', 'fetch-transform-write', '--target', 'success=0.6', '--members', '4'];
    const refused = cli([...quick, '--seeds-per-candidate', '10', '--out', out]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `error: ${out}: a new path; a file is already there, which this would replace: add --overwrite to replace it, or choose another --out\n`,
    );
    expect(readFileSync(out, 'utf8')).toBe('my notes\n');
    const bundled = fileURLToPath(new URL('../scenarios/ensembles/default.yaml', import.meta.url));
    const before = readFileSync(bundled, 'utf8');
    for (const path of [bundled, join(dirname(bundled), 'mine.yaml')]) {
      const result = cli([...quick, '--seeds-per-candidate', '10', '--out', path]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^error: .*: a path outside spiralbench's bundled scenarios .*add --overwrite/);
      expect(existsSync(join(dirname(bundled), 'mine.yaml'))).toBe(false);
    }
    expect(readFileSync(bundled, 'utf8')).toBe(before);
  });

  it('refuses a scenario with a persona of its own, which run --ensemble would never replace', () => {
    const out = join(tempDir(), 'e.yaml');
    const result = cli(['calibrate', '-s', 'fetch-transform-write-stubborn', '--target', 'success=0.6', '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "error: --scenario: a scenario on the default persona (run --ensemble replaces only that one); fetch-transform-write-stubborn names its own persona 'stubborn'\n",
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses bad targets naming the flag, the field and the expectation, before any run and without a file', () => {
    const out = join(tempDir(), 'e.yaml');
    const result = cli([
      'calibrate',
      '-s',
      'fetch-transform-write',
      '--target',
      'median_calls=twelve,success=64,tokens=3',
      '--out',
      out,
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      [
        'error: 3 problems',
        "  - --target: median_calls: a number, got 'twelve'",
        '  - --target: success: a share of successful runs from 0 to 1 (0.64 for 64%), got 64',
        '  - --target: tokens: one of median_calls, p95_calls, success, median_input_tokens, identical_consecutive, after_good_identical, after_permanent_identical, after_transient_identical, long_run_repeat_share',
        '',
      ].join('\n'),
    );
    expect(existsSync(out)).toBe(false);
    const folder = cli(['calibrate', '-s', 'fetch-transform-write', '--target', 'success=0.6', '--out', tempDir()]);
    expect(folder.status).toBe(2);
    expect(folder.stderr).toMatch(/^error: --out: a file, not a folder/);
  });
});
