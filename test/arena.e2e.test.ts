import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

// One small scenario with faults, three seeds: every arm of the arena, peers included, in a few seconds.
const ARENA = ['arena', '--scenarios', 'lookup-readonly', '--seeds', '3'];
const ARMS = [
  'none',
  'article',
  'all',
  'peer:anthropic-tool-runner',
  'peer:vercel-ai',
  'peer:vercel-ai+article',
  'peer:vercel-ai+all',
  'peer:langchain',
  'peer:langchain+article',
  'peer:langchain+all',
  'peer:openai-agents',
];
const FILES = ['runs.jsonl', 'runs.csv', 'summary.json'];

describe('spiralbench arena', () => {
  const [twoWorkers, oneWorker] = [tempDir(), tempDir()];
  let first: ReturnType<typeof cli>;

  beforeAll(() => {
    first = cli([...ARENA, '--workers', '2', '--out', twoWorkers]);
  });

  it('runs our three arms and every installed peer as one sweep and ranks them', () => {
    expect(first.status, first.stderr).toBe(0);
    const rows = first.stdout.split('\n').filter((line) => /^│ \d+ /.test(line));
    expect(rows).toHaveLength(ARMS.length);
    expect(rows.map((row) => row.split('│')[2]!.trim()).sort()).toEqual([...ARMS].sort());
    // Ranked by success: the rates read down the board never rise.
    const rates = rows.map((row) => Number(/(\d+\.\d)% \[/.exec(row)![1]));
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    expect(rows.every((row) => row.split('│')[3]!.trim() === '3')).toBe(true);
  });

  it('writes a normal sweep folder whose summary carries each peer setting', () => {
    for (const file of [...FILES, 'meta.json']) expect(existsSync(join(twoWorkers, file)), file).toBe(true);
    const summary = JSON.parse(readFileSync(join(twoWorkers, 'summary.json'), 'utf8')) as {
      arms: Array<{ name: string; guards: unknown[]; peer?: Record<string, unknown> }>;
      cells: Array<{ arm: string }>;
    };
    expect(summary.arms.map((arm) => arm.name)).toEqual(ARMS);
    expect(summary.arms.find((arm) => arm.name === 'peer:langchain')).toEqual({
      name: 'peer:langchain',
      guards: [],
      peer: {
        peer: 'langchain',
        recursionLimit: 25,
        modelCallLimit: null,
        toolCallLimit: null,
        modelRetries: null,
        clientMaxRetries: 0,
      },
    });
    expect(summary.arms.find((arm) => arm.name === 'none')).not.toHaveProperty('peer');
    expect(summary.cells).toHaveLength(ARMS.length);
    expect(readFileSync(join(twoWorkers, 'runs.csv'), 'utf8')).toContain('peer:openai-agents');
  });

  it('is byte-identical in another process with another worker count (2, then 1)', () => {
    const result = cli([...ARENA, '--workers', '1', '--out', oneWorker]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.replaceAll(oneWorker, '<out>')).toBe(first.stdout.replaceAll(twoWorkers, '<out>'));
    for (const file of FILES)
      expect(readFileSync(join(oneWorker, file), 'utf8'), file).toBe(readFileSync(join(twoWorkers, file), 'utf8'));
  });

  it('peer arms work in run, report and compare like any other arm', () => {
    const dir = tempDir();
    const run = cli(['run', '-s', 'lookup-readonly', '-a', 'none,peer:vercel-ai', '-n', '3', '-w', '1', '--out', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('peer:vercel-ai');
    const compare = cli(['compare', twoWorkers, dir]);
    expect(compare.status, compare.stderr).toBe(0);
    expect(compare.stdout).toContain('peer:vercel-ai');
    const html = join(tempDir(), 'arena.html');
    const report = cli(['report', twoWorkers, '--html', html]);
    expect(report.status, report.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('maxIterations');
    // The arena's report holds its leaderboard: the same arms in the order the arena printed them.
    const answer = page.slice(page.indexOf('<section class="block" id="answer">'));
    expect(answer).toContain('<h3>Arena leaderboard</h3>');
    const board = first.stdout
      .split('\n')
      .filter((line) => /^│ \d+ /.test(line))
      .map((row) => row.split('│')[2]!.trim());
    // Up to the next tag: peer:langchain is a prefix of peer:langchain+article.
    const positions = board.map((arm) => answer.indexOf(`<td class="arm">${arm}<`));
    expect(positions.every((at) => at > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('refuses a peer arm against a real model, before anything runs', () => {
    const result = cli(
      [
        'run',
        '-s',
        'lookup-readonly',
        '-a',
        'peer:langchain',
        '-n',
        '1',
        '--model',
        'claude-sonnet-5-5',
        '--out',
        tempDir(),
      ],
      { ANTHROPIC_API_KEY: 'sk-ant-test-not-real' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('agent arms (peer:langchain) run against the simulated model only');
  });

  it('--help explains the arms, the ranking and where the settings are', () => {
    const help = cli(['arena', '--help']).stdout;
    expect(help).toContain('--scenarios <ids>');
    expect(help).toContain('ranks arms by success');
    expect(help).toContain('Peer settings (loop limits, retries, middleware) are in summary.json');
  });
});
