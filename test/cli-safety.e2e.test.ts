import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

const RUN = ['run', '--scenario', 'fetch-transform-write', '--seeds', '20'];

describe('the CLI refuses what would lose or misreport results', () => {
  const baseline = tempDir();
  cli([...RUN, '--arms', 'none,article', '--out', baseline]);

  it('an --out that is a file', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const result = cli([...RUN, '--out', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`error: --out: a folder; ${file} is a file\n`);
  });

  // Each with a later flag that fails too, so a CLI that took the folder still writes nothing there.
  it.each([
    ['run', '--scenario', 'lookup-readonly'],
    ['arena', '--scenarios', 'lookup-readonly'],
    ['crash-resume', '-s', 'lookup-readonly'],
  ])('%s: an --out that is empty or the root of the file system', (...command) => {
    for (const out of ['', '/', '//', '/..']) {
      const result = cli([...command, '--out', out, '--seeds', '0']);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^error: option '-o, --out <dir>' argument '.*' is invalid\. expected a folder/);
    }
  });

  it('merge: an --out that is the root of the file system', () => {
    const result = cli(['merge', join(tempDir(), 'none'), '--out', '/']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/expected a folder other than the root of the file system/);
  });

  it("an arms file's arm named like a peer framework's, which the peer would silently replace", () => {
    const arms = join(tempDir(), 'arms.yaml');
    writeFileSync(arms, 'arms:\n  - name: peer:vercel-ai\n    guards: [{ guard: budget, maxToolCalls: 4 }]\n');
    const result = cli([...RUN, '--arms-file', arms, '--arms', 'peer:vercel-ai', '--out', tempDir()]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `error: ${arms}: arms.0.name: a name of your own; 'peer:vercel-ai' is reserved: peer: starts the arms of peer frameworks\n`,
    );
  });

  it('a scenario named twice', () => {
    const result = cli([
      'run',
      '--scenario',
      'fetch-transform-write,fetch-transform-write',
      '--seeds',
      '2',
      '--out',
      tempDir(),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/each scenario once; repeated: fetch-transform-write/);
  });

  it('a merge into one of its own shard folders, which stays intact', () => {
    const result = cli(['merge', baseline, '--out', baseline]);
    expect(result.status).toBe(2);
    expect(existsSync(join(baseline, 'summary.json'))).toBe(true);
  });

  it('a --check that did not run every baseline cell, with or without --json', () => {
    for (const extra of [[], ['--json']]) {
      const result = cli([...RUN, '--arms', 'none', '--out', tempDir(), '--check', baseline, ...extra]);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        /check: 1 cell\(s\) of the baseline were not run \(fetch-transform-write · article\)/,
      );
    }
  });

  it('compare --fail-on-regression when the candidate lacks baseline cells', () => {
    const candidate = tempDir();
    cli([...RUN, '--arms', 'none', '--out', candidate]);
    const result = cli(['compare', baseline, candidate, '--fail-on-regression']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/1 baseline cell\(s\) missing from/);
  });
});

describe('replay reproduces runs of custom scenarios and arms', () => {
  it('takes a scenario path and the arms file the run used', () => {
    const arms = join(tempDir(), 'arms.yaml');
    writeFileSync(arms, 'arms:\n  - name: tight\n    guards:\n      - { guard: budget, maxToolCalls: 4 }\n');
    const args = [
      'replay',
      '--scenario',
      './scenarios/lookup-readonly.yaml',
      '--arm',
      'tight',
      '--arms-file',
      arms,
      '--seed',
      '2',
    ];
    const first = cli(args);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('lookup-readonly · arm tight · seed 2');
    expect(cli(args).stdout).toBe(first.stdout);
    expect(cli(['replay', '--scenario', 'lookup-readonly', '--arm', 'tight', '--seed', '2']).status).toBe(2);
  });
});
