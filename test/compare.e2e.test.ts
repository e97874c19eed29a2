import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../src/report/compare.js';
import type { StoredRun } from '../src/results/run-record-schema.js';
import { finishedFolder, fixtureRun, fixtureSummary } from '../src/results/sweep-fixture.test-helpers.js';
import { candidateArms, cli, cliAsync, tempDir } from './cli-helpers.js';

const SCENARIO = 'fetch-transform-write';
let root = '';

/** Runs a sweep into a fresh folder and returns the folder. */
async function sweep(name: string, arms: string): Promise<string> {
  const out = join(root, name);
  const result = await cliAsync(['run', '--scenario', SCENARIO, '--arms', arms, '--seeds', '300', '--out', out]);
  expect(result.status, result.stderr).toBe(0);
  return out;
}

describe('spiralbench compare', () => {
  let baseline = '';
  let rerun = '';
  let both = '';

  beforeAll(async () => {
    root = tempDir('spiralbench-compare-');
    baseline = await sweep('baseline', 'none');
    rerun = await sweep('rerun', 'none');
    both = await sweep('both', 'none,classify');
  });

  it('finds no regression between two runs of the same sweep, and exits 0 with --fail-on-regression', () => {
    const result = cli(['compare', baseline, rerun, '--fail-on-regression']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/│ none\s+│ fetch-transform-write │ (\d+\.\d)% → \1%\s+│/);
    expect(result.stdout).toMatch(/│\s+│\s+│ 0\.0 pts \[-\d+\.\d, \+\d+\.\d\]\s+│/);
    expect(result.stdout).toContain('p = 1.000');
    // The same runs twice: no change, but these few seeds cannot rule out one beyond the 5-point tolerance.
    expect(result.stdout).toContain('\nVerdict: inconclusive (1 inconclusive; 1 cell)\n');
    expect(result.stdout).toMatch(
      /\n {2}inconclusive fetch-transform-write · none: the interval \[-\d+\.\d, \+\d+\.\d\] allows a drop of up to \d+\.\d points \(tolerance 5\); run more seeds\n/,
    );
    // Told that a move that wide does not matter, the same runs read unchanged.
    const tolerant = cli(['compare', baseline, rerun, '--tolerance', '60']);
    expect(tolerant.stdout).toContain('\nVerdict: unchanged (1 unchanged; 1 cell)\n');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Gate (success): passed, no significant regression.');
    expect(result.stderr).toBe('');
  });

  it('flags the regression from classify to none in one sweep, exits 1 and writes it to Markdown', () => {
    const markdown = join(root, 'summary.md');
    const result = cli([
      'compare',
      both,
      both,
      '--arm-a',
      'classify',
      '--arm-b',
      'none',
      '--fail-on-regression',
      '--markdown',
      markdown,
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /│ classify → none │ fetch-transform-write │ \d+\.\d% → \d+\.\d%\s+│ one model: not assessed │ .* │ regressed\s+│/,
    );
    expect(result.stdout).toMatch(
      /\nVerdict: regressed \(1 regressed; 1 cell\)\n {2}regressed fetch-transform-write · classify → none: success \d+\.\d% → \d+\.\d% \(-\d+\.\d pts, p = [\d.e-]+\); p95 tool calls [\d.,]+ → [\d.,]+ \(\+\d+%\)/,
    );
    // The gate names only what it gates: success.
    expect(result.stdout).toMatch(
      /\nGate \(success\): 1 cell regressed:\n {2}REGRESSION fetch-transform-write · classify → none: success \d+\.\d% → \d+\.\d% \(-\d+\.\d pts, p = [\d.e-]+\)\n/,
    );
    expect(result.stdout).toContain(`markdown: ${markdown}`);
    expect(result.stderr).toBe('compare: 1 cell regressed on success (--fail-on-regression)\n');
    const text = readFileSync(markdown, 'utf8');
    expect(text).toMatch(/^## spiralbench compare\n/);
    expect(text).toMatch(/^\| classify → none \| fetch-transform-write \| .* \| regressed<br>\*\*REGRESSION\*\* \|$/m);
    expect(text).toContain('Gate (success): **REGRESSION** in 1 cell:');
  });

  it('reports the figures as JSON, the same bytes every time, and exits 0 without --fail-on-regression', () => {
    const args = ['compare', both, both, '--arm-a', 'classify', '--arm-b', 'none', '--json'];
    const first = cli(args);
    expect(first.status, first.stderr).toBe(0);
    expect(cli(args).stdout).toBe(first.stdout);
    const { rows } = JSON.parse(first.stdout) as Comparison;
    expect(rows).toHaveLength(1);
    const [row] = rows;
    // The README's 1,000-seed figures: classify 90.1%, none 65.0%; p95 calls 49 → 103.
    expect(row?.success.rateA).toBeGreaterThan(0.85);
    expect(row?.success.rateB).toBeLessThan(0.75);
    expect(row?.success.p).toBeLessThan(1e-6);
    expect(row?.success.high).toBeLessThan(-0.1);
    expect(row?.toolCalls.p95.low).toBeGreaterThan(0);
    expect(row?.inputTokens.median.low).toBeGreaterThan(0);
    expect(row?.findings.map((finding) => [finding.metric, finding.gated])).toEqual([
      ['success', true],
      ['p95_tool_calls', false],
      ['median_input_tokens', false],
    ]);
    expect(row?.verdict).toBe('regressed');
    expect(row?.regression).toBe(true);
    expect(row?.robustness.success).toMatchObject({ label: 'one-model', members: 1 });
  });

  it('lets thresholds loosen the gate', () => {
    const result = cli([
      'compare',
      both,
      both,
      '--arm-a',
      'classify',
      '--arm-b',
      'none',
      '--fail-on-regression',
      '--success-drop',
      '50%',
      '--p95-calls-rise',
      '5',
      '--tokens-rise',
      '2',
      '--gate',
      'all',
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Gate (success, p95 tool calls, median input tokens): passed, no significant regression.',
    );
  });

  it.each([
    [
      ['compare', '/no/such/sweep', '/no/such/other'],
      /^error: \/no\/such\/sweep: a sweep folder holding runs\.jsonl .*; nothing is there\n$/,
    ],
    [
      ['compare', 'BASELINE', 'BASELINE', '--success-drop', 'lots'],
      /^error: --success-drop: a fraction such as 0\.1 or a percentage such as 10%; got 'lots'\n$/,
    ],
    [['compare', 'BASELINE', 'BASELINE', '--success-drop', '1.5'], /^error: --success-drop: a fraction in \[0, 1\)/],
    [
      ['compare', 'BASELINE', 'BASELINE', '--arm-a', 'classify'],
      /^error: --arm-a: an arm of sweep A \(none\); got 'classify'\n$/,
    ],
    [['compare', 'BASELINE', 'BASELINE', '--gate', 'success,p99'], /^error: --gate: one or more of success, /],
    [
      ['compare', 'BASELINE', 'BOTH', '--markdown', '/no/such/dir/out.md'],
      /^error: --markdown: a file in an existing folder; \/no\/such\/dir does not exist\n$/,
    ],
  ])('bad input %j gets one line and exit code 2', (args, message) => {
    const result = cli(args.map((arg) => (arg === 'BASELINE' ? baseline : arg === 'BOTH' ? both : arg)));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('compare: a verdict, not a regression, when a safeguard buys success with tool calls', () => {
  // model-outage: `recover` retries and falls back, so its runs make more calls and succeed far more often.
  let both = '';
  beforeAll(async () => {
    both = join(tempDir('spiralbench-outage-'), 'sweep');
    const result = await cliAsync(['run', '-s', 'model-outage', '-a', 'none,recover', '-n', '300', '-o', both]);
    expect(result.status, result.stderr).toBe(0);
  });

  it('calls none → recover mixed and passes the default gate (success)', () => {
    const result = cli([
      'compare',
      both,
      both,
      '--arm-a',
      'none',
      '--arm-b',
      'recover',
      '--fail-on-regression',
      '--json',
    ]);
    expect(result.status, result.stderr).toBe(0);
    const comparison = JSON.parse(result.stdout) as Comparison;
    const [row] = comparison.rows;
    expect(row?.success.difference).toBeGreaterThan(0.4);
    expect(row?.findings).toContainEqual({ metric: 'success', direction: 'better', gated: true });
    expect(row?.findings).toContainEqual({ metric: 'p95_tool_calls', direction: 'worse', gated: false });
    expect([row?.verdict, comparison.verdict, row?.regression]).toEqual(['mixed', 'mixed', false]);
  });

  it('fails the gate when asked to gate p95 tool calls too', () => {
    const result = cli([
      'compare',
      both,
      both,
      '--arm-a',
      'none',
      '--arm-b',
      'recover',
      '--fail-on-regression',
      '--gate',
      'success,p95_tool_calls',
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/\nVerdict: mixed \(1 mixed; 1 cell\)\n/);
    expect(result.stdout).toMatch(
      /\nGate \(success, p95 tool calls\): 1 cell regressed:\n {2}REGRESSION model-outage · none → recover: p95 tool calls [\d.]+ → [\d.]+ \(\+\d+%\)\n/,
    );
    expect(result.stderr).toBe('compare: 1 cell regressed on success, p95_tool_calls (--fail-on-regression)\n');
  });
});

describe('compare across a persona ensemble', () => {
  /**
   * Two arms over 30 members × 10 seeds, written as an ensemble sweep writes them. Member m
   * succeeds under `none` on runs whose index within the member is < 4 (40%); `all` on < 8
   * (80%) for every member, `split` on < 8 for even members and never for odd ones.
   */
  function ensembleSweep(): string {
    const runs: StoredRun[] = [];
    const succeeds: Record<string, (member: number, within: number) => boolean> = {
      none: (_m, within) => within < 4,
      all: (_m, within) => within < 8,
      split: (m, within) => m % 2 === 0 && within < 8,
    };
    for (const arm of ['none', 'all', 'split']) {
      for (let i = 0; i < 300; i++) {
        const member = i % 30;
        const verdict = succeeds[arm]!(member, Math.floor(i / 30)) ? 'success' : 'failure';
        runs.push(fixtureRun({ scenario: 's1', arm, seed: i + 1, member, verdict }));
      }
    }
    const summary = fixtureSummary(
      ['none', 'all', 'split'].map((arm) => ({ scenario: 's1', arm, runs: 300 })),
      300,
      { ensemble: { name: 'default', members: 30, hash: 'h' } },
    );
    return finishedFolder(runs, summary);
  }

  it('labels a gain on every member robust and a gain on half of them depends on the model', () => {
    const dir = ensembleSweep();
    const robust = cli(['compare', dir, dir, '--arm-a', 'none', '--arm-b', 'all']);
    expect(robust.status, robust.stderr).toBe(0);
    expect(robust.stdout).toMatch(/│ robust \(30 models\)\s+│/);
    expect(robust.stdout).toMatch(/│ pooled \+40\.0 pts \[\+\d+\.\d, \+\d+\.\d\]\s+│/);
    expect(robust.stdout).toContain('success: the pooled interval across models excludes 0');
    expect(robust.stdout).toMatch(
      /improved\s+s1 · none → all: success 40\.0% → 80\.0% \(\+40\.0 pts, p = [\d.e-]+; across 30 models: robust\)/,
    );
    const split = cli(['compare', dir, dir, '--arm-a', 'none', '--arm-b', 'split', '--fail-on-regression']);
    expect(split.status, split.stderr).toBe(0);
    expect(split.stdout).toMatch(/│ depends on the model \(30 models\)\s+│/);
    // A gain on half the members is no established change, and no proof of none either.
    expect(split.stdout).toContain('Verdict: inconclusive');
  });

  it('fails the gate on a regression and says it is robust', () => {
    const dir = ensembleSweep();
    const result = cli(['compare', dir, dir, '--arm-a', 'all', '--arm-b', 'none', '--fail-on-regression']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /\n {2}REGRESSION s1 · all → none: success 80\.0% → 40\.0% \(-40\.0 pts, p = [\d.e-]+; across 30 models: robust\)\n/,
    );
  });
});

describe('run --check: a sweep and its CI gate in one step', () => {
  const arms = candidateArms;
  const sweep = ['run', '--scenario', 'fetch-transform-write', '--arms', 'candidate', '--seeds', '300'];
  const baseline = tempDir();
  cli([...sweep, '--arms-file', arms('[{ guard: classify }]'), '--out', baseline]);

  it('passes when the candidate arm behaves as in the baseline', () => {
    const result = cli([
      ...sweep,
      '--arms-file',
      arms('[{ guard: classify }]'),
      '--out',
      tempDir(),
      '--check',
      join(baseline, 'summary.json'),
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Gate (success): passed, no significant regression.');
  });

  it('exits 1 naming the regression when a change to the arm makes it worse', () => {
    const result = cli([...sweep, '--arms-file', arms('[]'), '--out', tempDir(), '--check', baseline]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('REGRESSION');
    expect(result.stderr).toMatch(/check: 1 cell\(s\) regressed against /);
  });

  it('refuses a baseline folder without runs, and an --out that would overwrite the baseline', () => {
    expect(cli([...sweep, '--check', tempDir()]).stderr).toMatch(/^error: --check: a sweep folder/m);
    const same = cli([...sweep, '--arms-file', arms('[]'), '--out', baseline, '--check', baseline]);
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/^error: --out: a folder other than the --check baseline/m);
  });
});
