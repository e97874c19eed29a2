import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/spiralbench.js', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI (`npm run build` first) with a clean environment: no API key. */
export function cli(args: readonly string[], env: Record<string, string> = {}): CliResult {
  const { ANTHROPIC_API_KEY: _key, ...rest } = process.env;
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...rest, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `cli`, without blocking this process: for a CLI that talks to a server living in the test
 * (the fake provider), and for the long sweeps of `beforeAll` hooks. A worker blocked past
 * 60 s cannot read the runner's replies, and vitest fails a green run with `Timeout calling
 * "onTaskUpdate"` (see test/setup/yield-to-runner.ts). A clean environment: no provider
 * keys or base URLs but those given.
 */
export function cliAsync(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const {
    ANTHROPIC_API_KEY: _a,
    ANTHROPIC_BASE_URL: _b,
    OPENAI_API_KEY: _c,
    OPENAI_BASE_URL: _d,
    ...rest
  } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...rest, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

export function tempDir(prefix = 'spiralbench-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** An arms file of one arm, `candidate`, with `guards` (YAML) as its guards: a gate's before and after. */
export function candidateArms(guards: string): string {
  const path = join(tempDir(), 'arms.yaml');
  writeFileSync(path, `arms:\n  - name: candidate\n    guards: ${guards}\n`);
  return path;
}
