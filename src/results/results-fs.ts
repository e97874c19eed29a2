import { scrubProcessSecrets } from '../secrets/process-secrets.js';
import * as nodeFs from 'node:fs';

/**
 * The file-system calls results are written with. A port so that a test can make a call
 * fail the way a full disk does (ENOSPC) and check what is left behind.
 */
export type ResultsFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'fsyncSync' | 'fsync' | 'closeSync' | 'renameSync' | 'rmSync' | 'truncateSync'
>;

export const NODE_FS: ResultsFs = nodeFs;

/**
 * Writes all of `text` at the end of `fd`, without this process's secrets; returns the
 * bytes written. Every results file (runs, summary, traces, progress, meta, OTLP, reports)
 * is written through here, so no key reaches one whatever carried it in.
 */
export function writeAll(fs: ResultsFs, fd: number, raw: string): number {
  const text = scrubProcessSecrets(raw);
  const written = fs.writeSync(fd, text);
  const length = Buffer.byteLength(text);
  if (written === length) return written;
  // A short write (rare on a regular file): the rest, from the byte it stopped at.
  const bytes = Buffer.from(text);
  let at = written;
  while (at < length) at += fs.writeSync(fd, bytes, at, length - at);
  return length;
}

/** The temporary name a file is written under before it is renamed into place. */
export function tempPath(path: string, pid: number = process.pid): string {
  return `${path}.tmp-${pid}`;
}

/**
 * Whether `error`, or an error it was caused by, is the disk (or the user's quota) being
 * full: the one write failure the user fixes by freeing space, and that has its own exit code.
 */
export function isDiskFull(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at.cause) {
    const code = (at as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}

/** What a path must be, for each system refusal the user fixes by choosing another path. */
const PATH_EXPECTED: Readonly<Record<string, string>> = {
  EACCES: 'a file or folder this user may write and read; the system refused it',
  EPERM: 'a file or folder this user may write and read; the system refused it',
  EROFS: 'a file or folder on a disk that can be written; this one is read-only',
  ENOTDIR: 'a path whose parts are folders; one of them is a file',
  EISDIR: 'a file; this is a folder',
};

/**
 * The path `error` (or an error it was caused by) was refused at, what it should have
 * been, and the system's code: a read-only folder, another user's file, a file where a
 * folder was meant. Undefined for any other error. The user fixes it by choosing another
 * place, as with a bad flag.
 */
export function pathProblem(
  error: unknown,
): { readonly path: string; readonly code: string; readonly expected: string } | undefined {
  for (let at = error; at instanceof Error; at = at.cause) {
    const { code, path } = at as NodeJS.ErrnoException;
    const expected = code === undefined ? undefined : PATH_EXPECTED[code];
    if (code === undefined || expected === undefined) continue;
    const named = path ?? (error instanceof ResultsWriteError ? error.path : undefined);
    if (named !== undefined) return { path: named, code, expected };
  }
  return undefined;
}

/**
 * A results file could not be written (a full disk, a read-only folder). What was at
 * the path before is still there, and no temporary file is left behind.
 */
export class ResultsWriteError extends Error {
  override readonly name = 'ResultsWriteError';
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(
      `could not write ${path} (${cause instanceof Error ? cause.message : String(cause)}); what was there before is unchanged`,
      { cause },
    );
  }
}
