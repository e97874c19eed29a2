import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

describe('spiralbench CLI', () => {
  it('--version prints the package version and exits 0', () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const result = cli([flag]);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it('run prints a table per scenario with a row per arm and writes all three result files', () => {
    const out = tempDir();
    const result = cli([
      'run',
      '--scenario',
      'fetch-transform-write',
      '--arms',
      'none,article',
      '--seeds',
      '20',
      '--out',
      out,
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('fetch-transform-write');
    expect(result.stdout).toMatch(/│ none\s+│ 20\s+│ \d+\.\d% \[\d+\.\d%, \d+\.\d%\]/);
    expect(result.stdout).toMatch(/│ article\s+│ 20\s+│/);
    const lines = readFileSync(join(out, 'runs.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(40);
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(first).slice(0, 8)).toEqual([
      'sweep_seed',
      'scenario',
      'arm',
      'seed',
      'model',
      'outcome',
      'verdict',
      'verdict_reason',
    ]);
    expect(first).toMatchObject({ scenario: 'fetch-transform-write', arm: 'none', seed: 1, model: 'simulated' });
    const csv = readFileSync(join(out, 'runs.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(41);
    expect(csv[0]).toMatch(/^sweep_seed,scenario,arm,seed,model,outcome,verdict,/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      cells: Array<{ arm: string; runs: number }>;
    };
    expect(summary.cells.map((cell) => [cell.arm, cell.runs])).toEqual([
      ['none', 20],
      ['article', 20],
    ]);
  });

  it('replay prints the same bytes every time, ending with the command that reproduces it', () => {
    const args = ['replay', '--scenario', 'fetch-transform-write', '--arm', 'article', '--seed', '12'];
    const first = cli(args);
    expect(first.status, first.stderr).toBe(0);
    expect(cli(args).stdout).toBe(first.stdout);
    expect(first.stdout).toContain('model call 1');
    expect(first.stdout).toMatch(/verdict: (success|failure|escalated|harmful) — /);
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe(
      'replay: spiralbench replay --scenario fetch-transform-write --arm article --seed 12',
    );
  });

  it('replay through the real SDK prints the same transcript as in-process, but for the model label and its own command', () => {
    const args = ['replay', '--scenario', 'fetch-transform-write', '--arm', 'none', '--seed', '4'];
    const direct = cli(args).stdout;
    const viaSdk = cli([...args, '--via', 'sdk']).stdout;
    expect(viaSdk).toMatch(/\nreplay: spiralbench replay .* --via sdk\n$/);
    expect(viaSdk.replace('model simulated-sdk', 'model simulated').replace(' --via sdk\n', '\n')).toBe(direct);
  });

  it('replay matches the run recorded by the sweep', () => {
    const out = tempDir();
    cli(['run', '--scenario', 'fetch-transform-write', '--arms', 'none', '--seeds', '8', '--out', out]);
    const record = JSON.parse(readFileSync(join(out, 'runs.jsonl'), 'utf8').trim().split('\n')[7]!) as {
      seed: number;
      tool_calls: number;
      verdict: string;
    };
    const replay = cli([
      'replay',
      '--scenario',
      'fetch-transform-write',
      '--arm',
      'none',
      '--seed',
      String(record.seed),
    ]).stdout;
    expect(replay).toContain(`tool calls ${record.tool_calls} ·`);
    expect(replay).toContain(`verdict: ${record.verdict} —`);
  });

  it('list shows the scenarios, arm presets and built-in guards', () => {
    const result = cli(['list']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('fetch-transform-write');
    expect(result.stdout).toMatch(/article\s+stuck \+ budget \+ repeat \+ classify/);
    expect(result.stdout).toMatch(/^ {2}repair\s+repair$/m);
    expect(result.stdout).toMatch(
      /^ {2}budget\s+maxToolCalls: "task-class", counts: "requested"; events agent\.budget\.exhausted$/m,
    );
    expect(result.stdout).toContain('malformed-args  (standard, budget 15 calls, persona default, api openai-chat)');
  });

  it('runs and replays a scenario through the OpenAI-compatible edge, through the openai client the same as in-process', () => {
    const out = tempDir();
    cli(['run', '--scenario', 'malformed-args', '--arms', 'none,repair', '--seeds', '4', '--out', join(out, 'direct')]);
    cli([
      'run',
      '--scenario',
      'malformed-args',
      '--arms',
      'none,repair',
      '--seeds',
      '4',
      '--via',
      'sdk',
      '--out',
      join(out, 'sdk'),
    ]);
    const rows = (dir: string) =>
      readFileSync(join(out, dir, 'runs.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows('direct').map((row) => row['model'])).toEqual(Array(8).fill('simulated-openai'));
    expect(rows('sdk').map((row) => row['model'])).toEqual(Array(8).fill('simulated-openai-sdk'));
    expect(rows('sdk').map((row) => ({ ...row, model: 'x' }))).toEqual(
      rows('direct').map((row) => ({ ...row, model: 'x' })),
    );
    const replay = cli(['replay', '--scenario', 'malformed-args', '--arm', 'repair', '--seed', '2']).stdout;
    expect(replay).toContain('model simulated-openai');
    expect(replay).toMatch(/agent\.tool\.arguments \{"tool":"get_user","strategy":"strip_fences"\}/);
  });

  it.each([
    [['run', '--scenario', 'nope'], /^error: --scenario: one of .*fetch-transform-write.*; got 'nope'$/m],
    [
      ['run', '--scenario', 'fetch-transform-write', '--seeds', '0'],
      /argument '0' is invalid\. expected a whole number from 1 to 1000000000 \(runs per scenario and arm\)\./,
    ],
    [
      ['run', '--scenario', 'fetch-transform-write', '--arms', 'none,bogus'],
      /^error: --arms: arm names from .*; unknown: bogus$/m,
    ],
    [['replay', '--scenario', 'fetch-transform-write', '--arm', 'none'], /required option '--seed <n>' not specified/],
    [
      ['run', '--scenario', 'fetch-transform-write', '--model', 'claude-sonnet-5-5'],
      /^error: --model: a real model needs ANTHROPIC_API_KEY set/m,
    ],
    [['bogus'], /unknown command 'bogus'/],
  ])('bad input %j gets one clear line and exit code 2', (args, message) => {
    const result = cli(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('writes nothing for a sweep that fails validation', () => {
    const out = join(tempDir(), 'never');
    cli(['run', '--scenario', 'fetch-transform-write', '--arms', 'bogus', '--out', out]);
    expect(existsSync(out)).toBe(false);
  });
});
