import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, candidateArms, cli, tempDir } from './cli-helpers.js';

/** Runs the CLI with a reader that has already gone, as `| head` leaves it once it has its lines. */
function withClosedReader(args: readonly string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Closed long before node has started and written anything, so every write meets EPIPE.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
}

describe('a reader that closes the pipe early', () => {
  it.each([
    [['help', 'run']],
    [['list']],
    [['replay', '--scenario', 'lookup-readonly', '--arm', 'none', '--seed', '1']],
  ])('%j ends quietly with code 0', async (args) => {
    const result = await withClosedReader(args);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('a gate whose reader closes the pipe early', () => {
  it('still compares the sweep with its baseline, and fails on the regression', async () => {
    const arms = candidateArms;
    const sweep = ['run', '--scenario', 'fetch-transform-write', '--arms', 'candidate', '--seeds', '300'];
    const baseline = tempDir();
    expect(cli([...sweep, '--arms-file', arms('[{ guard: classify }]'), '--out', baseline]).status).toBe(0);
    const result = await withClosedReader([
      ...sweep,
      '--arms-file',
      arms('[]'),
      '--out',
      tempDir(),
      '--check',
      baseline,
    ]);
    expect(result.stderr).toMatch(/check: 1 cell\(s\) regressed against /);
    expect(result.status).toBe(1);
  });
});
