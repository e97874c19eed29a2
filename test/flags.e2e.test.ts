import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

const runs = (dir: string) => readFileSync(join(dir, 'runs.jsonl'), 'utf8');
const seeds = (dir: string) =>
  runs(dir)
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { seed: number }).seed);

describe('one flag name per meaning, old spellings kept as aliases', () => {
  it('run: --scenarios and --first-seed; --scenario and --seed give the same sweep', () => {
    const [named, aliased] = [tempDir(), tempDir()];
    const base = ['run', '--arms', 'none', '--seeds', '3'];
    const a = cli([...base, '--scenarios', 'lookup-readonly', '--first-seed', '7', '--out', named]);
    expect(a.status, a.stderr).toBe(0);
    expect(seeds(named)).toEqual([7, 8, 9]);
    const b = cli([...base, '--scenario', 'lookup-readonly', '--seed', '7', '--out', aliased]);
    expect(b.status, b.stderr).toBe(0);
    expect(runs(aliased)).toBe(runs(named));
  });

  it('run --help names the flags and their aliases', () => {
    const help = cli(['run', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      '-s, --scenarios <ids> scenario ids or .yaml paths, comma-separated (see `spiralbench list`; --scenario is an alias)',
    );
    expect(help).toContain(
      '--first-seed <n> first run seed; runs use n, n+1, ... (n + seeds at most 2^53 - 1; --seed is an alias)',
    );
  });

  it('arena: --first-seed, with --seed as its alias', () => {
    const [named, aliased] = [tempDir(), tempDir()];
    const base = ['arena', '-s', 'lookup-readonly', '--seeds', '1', '--workers', '1'];
    expect(cli([...base, '--first-seed', '4', '--out', named]).status).toBe(0);
    expect(cli([...base, '--seed', '4', '--out', aliased]).status).toBe(0);
    expect(new Set(seeds(named))).toEqual(new Set([4]));
    expect(runs(aliased)).toBe(runs(named));
  });

  it('compare: --bootstrap-seed, with --seed as its alias', () => {
    const sweep = tempDir();
    cli(['run', '-s', 'lookup-readonly', '-a', 'none,article', '-n', '20', '-o', sweep]);
    const base = ['compare', sweep, sweep, '--arm-a', 'none', '--arm-b', 'article', '--json'];
    const named = cli([...base, '--bootstrap-seed', '5']);
    expect(named.status, named.stderr).toBe(0);
    expect(cli([...base, '--seed', '5']).stdout).toBe(named.stdout);
    expect(cli(['compare', '--help']).stdout.replace(/\s+/g, ' ')).toMatch(
      /--bootstrap-seed <n> seed of the bootstrap streams \(default: 0; --seed is an alias\)/,
    );
  });
});

describe('crash-resume and live-check follow run', () => {
  it.each([
    ['crash-resume', /-s, --scenarios <ids> scenario ids or \.yaml paths, comma-separated \(--scenario is an alias\)/],
    ['crash-resume', /--first-seed <n> first run seed \(--seed is an alias\)/],
    ['live-check', /--first-seed <n> first run seed \(--seed is an alias\)/],
  ])('%s --help: %s', (command, line) => {
    expect(cli([command, '--help']).stdout.replace(/\s+/g, ' ')).toMatch(line);
  });

  it('crash-resume takes --scenarios and --first-seed, and the old spellings', () => {
    const [named, aliased] = [tempDir(), tempDir()];
    const base = ['crash-resume', '-a', 'none', '-n', '2'];
    expect(cli([...base, '--scenarios', 'lookup-readonly', '--first-seed', '3', '-o', named]).status).toBe(0);
    expect(cli([...base, '--scenario', 'lookup-readonly', '--seed', '3', '-o', aliased]).status).toBe(0);
    const file = (dir: string) => readFileSync(join(dir, 'crash-resume.jsonl'), 'utf8');
    expect(file(named)).toMatch(/"seed":3\b/);
    expect(file(aliased)).toBe(file(named));
  });
});
