import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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

export function tempDir(prefix = 'spiralbench-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
