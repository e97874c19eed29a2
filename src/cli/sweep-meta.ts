import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../bench/results-writer.js';
import { VERSION } from '../version.js';
import type { LiveLabel } from '../bench/live-session.js';
import { argvForRecord } from './base-url.js';

/**
 * meta.json: where and when a sweep ran. Kept apart from the results files, which are
 * the same bytes on every machine; a report reads the sweep's date from here.
 */
export interface SweepMeta {
  readonly spiralbench: string;
  readonly node: string;
  readonly git_commit: string | null;
  readonly started_at: string;
  readonly finished_at: string;
  readonly wall_seconds: number;
  readonly workers: number;
  /** Model calls were streamed (`spiralbench run --stream`); absent where the command has no such flag (merge). */
  readonly stream?: boolean;
  readonly command: string;
  /** Live sweeps only: how they ran (real sockets, scaled real time). */
  readonly live?: LiveLabel;
}

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

export function writeSweepMeta(
  dir: string,
  meta: Omit<SweepMeta, 'spiralbench' | 'node' | 'git_commit' | 'command'>,
  argv: readonly string[] = process.argv,
): void {
  const full: SweepMeta = {
    spiralbench: VERSION,
    node: process.version,
    git_commit: gitCommit(),
    ...meta,
    command: ['spiralbench', ...argvForRecord(argv.slice(2))].join(' '),
  };
  writeFileAtomic(join(dir, 'meta.json'), `${JSON.stringify(full, null, 2)}\n`);
}
