import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoredMeta } from '../results/meta-schema.js';
import { writeMeta } from '../results/results-writer.js';
import { VERSION } from '../version.js';
import { argvForRecord } from './base-url.js';

/** meta.json as the results module defines it: where and when a sweep ran. */
export type SweepMeta = StoredMeta;

/** The commit of the spiralbench checkout running, if it is one. */
function gitCommit(): string | null {
  try {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || null
    );
  } catch {
    return null;
  }
}

/** Writes the sweep's meta.json (atomically, with the results format version) from what the command knows. */
export function writeSweepMeta(
  dir: string,
  meta: Omit<SweepMeta, 'format_version' | 'spiralbench' | 'node' | 'git_commit' | 'command'>,
  argv: readonly string[] = process.argv,
): void {
  writeMeta(dir, {
    spiralbench: VERSION,
    node: process.version,
    git_commit: gitCommit(),
    ...meta,
    command: ['spiralbench', ...argvForRecord(argv.slice(2))].join(' '),
  });
}
