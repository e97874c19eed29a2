import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIOR_ONLY_PARAMETERS } from '../src/model/simulated/persona-priors.js';
import { BIN, cli, tempDir } from './cli-helpers.js';

const SWEEP = [
  'run',
  '-s',
  'fetch-transform-write',
  '-a',
  'none,stuck',
  '-n',
  '40',
  '--ensemble',
  'default',
  '-w',
  '1',
];

interface AtEdges {
  readonly main: { readonly label: string; readonly sign: string };
  readonly low: { readonly label: string; readonly sign: string } | null;
  readonly high: { readonly label: string; readonly sign: string } | null;
  readonly changes_at: readonly string[];
  readonly depends_on: readonly string[];
}

interface Summary {
  readonly sensitivity?: {
    readonly parameters: ReadonlyArray<{ readonly parameter: string; readonly low: number; readonly high: number }>;
    readonly cells: ReadonlyArray<{ readonly scenario: string; readonly arm: string } & AtEdges>;
    readonly harmful?: {
      readonly baseline: string;
      readonly arms: ReadonlyArray<{ readonly arm: string } & AtEdges>;
    };
  };
}

/** The edges where a conclusion's label or sign differs from the main sweep's, worked out afresh. */
const changesOf = (at: AtEdges) =>
  (['low', 'high'] as const).filter((edge) => at[edge]!.label !== at.main.label || at[edge]!.sign !== at.main.sign);

describe('run --ensemble --sensitivity', () => {
  const root = tempDir();
  const dir = (name: string) => join(root, name);
  const summary = (name: string) => JSON.parse(readFileSync(join(dir(name), 'summary.json'), 'utf8')) as Summary;
  let stdout = '';

  beforeAll(() => {
    const plain = cli([...SWEEP, '-o', dir('plain')]);
    expect(plain.status, plain.stderr).toBe(0);
    const sensitive = cli([...SWEEP, '--sensitivity', '-o', dir('sensitive')]);
    expect(sensitive.status, sensitive.stderr).toBe(0);
    stdout = sensitive.stdout;
  });

  it('ends the output with the sensitivity section', () => {
    expect(stdout).toMatch(/\nSensitivity to priors: /);
    expect(stdout.slice(stdout.indexOf('Sensitivity to priors'))).toContain('help.probability');
  });

  it('writes every arm-vs-baseline cell at the main sweep and both edges to summary.json, naming the moved parameters', () => {
    const { sensitivity } = summary('sensitive');
    expect(sensitivity?.parameters.map((entry) => entry.parameter)).toEqual([...PRIOR_ONLY_PARAMETERS]);
    expect(sensitivity?.parameters.find((entry) => entry.parameter === 'help.after_failures')).toEqual({
      parameter: 'help.after_failures',
      low: 1,
      high: 8,
    });
    expect(sensitivity?.cells.map((cell) => [cell.scenario, cell.arm])).toEqual([['fetch-transform-write', 'stuck']]);
    const cell = sensitivity!.cells[0]!;
    expect(cell.low).not.toBeNull();
    expect(cell.high).not.toBeNull();
    const changes = changesOf(cell);
    expect(cell.changes_at).toEqual(changes);
    expect(cell.depends_on).toEqual(changes.length > 0 ? [...PRIOR_ONLY_PARAMETERS] : []);
  });

  it("writes each arm's harmful-rate conclusion against the baseline at the main sweep and both edges", () => {
    const harmful = summary('sensitive').sensitivity?.harmful;
    expect(harmful?.baseline).toBe('none');
    expect(harmful?.arms.map((entry) => entry.arm)).toEqual(['stuck']);
    const arm = harmful!.arms[0]!;
    expect(arm.low).not.toBeNull();
    expect(arm.high).not.toBeNull();
    expect(arm.changes_at).toEqual(changesOf(arm));
    expect(arm.depends_on).toEqual(arm.changes_at.length > 0 ? [...PRIOR_ONLY_PARAMETERS] : []);
    expect(stdout).toContain('\nHarmful rate against none, as the answer table pools it: ');
  });

  it('leaves the sweep itself as it was: runs.jsonl the same bytes, summary.json without sensitivity the same', () => {
    expect(summary('plain')).not.toHaveProperty('sensitivity');
    expect(readFileSync(join(dir('sensitive'), 'runs.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir('plain'), 'runs.jsonl'), 'utf8'),
    );
    const { sensitivity: _, ...rest } = summary('sensitive');
    expect(rest).toEqual(summary('plain'));
  });

  it('stopped by Ctrl-C at the edges, says the sweep is whole and how to get the sensitivity (not --resume)', async () => {
    const out = join(tempDir(), 'stopped');
    const child = spawn(process.execPath, [BIN, ...SWEEP, '--sensitivity', '-o', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('at the low edge...') && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain(
      `interrupted while re-running the sweep at the priors' edges (--sensitivity). The sweep itself is whole in ${out}`,
    );
    expect(stderr).toContain('run the same command with --overwrite');
    const stopped = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(stopped.sensitivity).toBeUndefined();
  });

  it('refuses --sensitivity without --ensemble (exit 2), naming the flag it needs', () => {
    const result = cli([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'none,stuck',
      '-n',
      '2',
      '--sensitivity',
      '-o',
      dir('refused'),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--sensitivity');
    expect(result.stderr).toContain('--ensemble');
  });
});
