import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../src/report/compare.js';
import { cli, tempDir } from './cli-helpers.js';

const SCENARIO = 'fetch-transform-write';
let root = '';

/** Runs a sweep into a fresh folder and returns the folder. */
function sweep(name: string, arms: string): string {
  const out = join(root, name);
  const result = cli(['run', '--scenario', SCENARIO, '--arms', arms, '--seeds', '300', '--out', out]);
  expect(result.status, result.stderr).toBe(0);
  return out;
}

describe('spiralbench compare', () => {
  let baseline = '';
  let rerun = '';
  let both = '';

  beforeAll(() => {
    root = tempDir('spiralbench-compare-');
    baseline = sweep('baseline', 'none');
    rerun = sweep('rerun', 'none');
    both = sweep('both', 'none,classify');
  });

  it('finds no regression between two runs of the same sweep, and exits 0 with --fail-on-regression', () => {
    const result = cli(['compare', baseline, rerun, '--fail-on-regression']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/│ none\s+│ fetch-transform-write │ (\d+\.\d)% → \1%\s+│/);
    expect(result.stdout).toMatch(/│\s+│\s+│ 0\.0 pts \[-\d+\.\d, \+\d+\.\d\]\s+│/);
    expect(result.stdout).toContain('p = 1.000');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('No significant regressions.');
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
      /│ classify → none │ fetch-transform-write │ \d+\.\d% → \d+\.\d%\s+│ .* │ REGRESSION │/,
    );
    expect(result.stdout).toMatch(
      /1 cell regressed:\n {2}REGRESSION fetch-transform-write · classify → none: success \d+\.\d% → \d+\.\d% \(-\d+\.\d pts, p = [\d.e-]+\); p95 tool calls [\d.,]+ → [\d.,]+ \(\+\d+%\)/,
    );
    expect(result.stdout).toContain(`markdown: ${markdown}`);
    expect(result.stderr).toBe('compare: 1 cell regressed (--fail-on-regression)\n');
    const text = readFileSync(markdown, 'utf8');
    expect(text).toMatch(/^## spiralbench compare\n/);
    expect(text).toMatch(/^\| classify → none \| fetch-transform-write \| .* \| \*\*REGRESSION\*\* \|$/m);
    expect(text).toContain('**REGRESSION** in 1 cell:');
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
    expect(row?.findings.map((finding) => finding.metric)).toEqual([
      'success',
      'p95_tool_calls',
      'median_input_tokens',
    ]);
    expect(row?.mark).toBe('regression');
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
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('No significant regressions.');
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

describe('run --check: a sweep and its CI gate in one step', () => {
  const arms = (guards: string) => {
    const path = join(tempDir(), 'arms.yaml');
    writeFileSync(path, `arms:\n  - name: candidate\n    guards: ${guards}\n`);
    return path;
  };
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
    expect(result.stdout).toContain('No significant regressions.');
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
