import { NODE_FS, ResultsWriteError, tempPath, writeAll, type ResultsFs } from './results-fs.js';

/**
 * Writes `text` to `path` atomically: a reader sees the old file or the new one, never
 * half of either. The text goes to `<path>.tmp-<pid>`, is synced, and is renamed over
 * `path`. If any step fails (ENOSPC half-way through) the temporary file is removed and
 * the old file stays as it was; the error names the path.
 *
 * @example
 * writeFileAtomic('reports/latest.html', html);
 */
export function writeFileAtomic(path: string, text: string, fs: ResultsFs = NODE_FS): void {
  const temp = writeTempFile(path, text, fs);
  try {
    fs.renameSync(temp, path);
  } catch (error) {
    discard(fs, temp);
    throw new ResultsWriteError(path, error);
  }
}

/**
 * The first half of an atomic write: `text` written and synced under the temporary name
 * of `path`, which is returned for the caller to rename into place. On failure nothing
 * is left behind.
 */
export function writeTempFile(path: string, text: string, fs: ResultsFs = NODE_FS): string {
  const temp = tempPath(path);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'w');
    writeAll(fs, fd, text);
    fs.fsyncSync(fd);
    const open = fd;
    fd = undefined;
    fs.closeSync(open);
    return temp;
  } catch (error) {
    discard(fs, temp, fd);
    throw new ResultsWriteError(path, error);
  }
}

/** Closes `fd` if open and removes `temp`, ignoring failures: the error being thrown is the one to report. */
export function discard(fs: ResultsFs, temp: string, fd?: number): void {
  if (fd !== undefined) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed, or the disk is gone: the removal below is what matters
    }
  }
  try {
    fs.rmSync(temp, { force: true });
  } catch {
    // nothing more can be done
  }
}

/**
 * Writes bytes to `path` atomically, as writeFileAtomic writes text: a reader sees the old
 * file or the new one. The bytes are the caller's to have scrubbed (a compressed file
 * cannot be scrubbed after the fact: compress scrubbed text).
 *
 * @example
 * writeBytesAtomic('cassettes/ftw/s/none/1.jsonl.gz', gzipSync(scrubProcessSecrets(text)));
 */
export function writeBytesAtomic(path: string, bytes: Uint8Array, fs: ResultsFs = NODE_FS): void {
  const temp = tempPath(path);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'w');
    let at = 0;
    while (at < bytes.length) at += fs.writeSync(fd, bytes, at, bytes.length - at);
    fs.fsyncSync(fd);
    const open = fd;
    fd = undefined;
    fs.closeSync(open);
    fs.renameSync(temp, path);
  } catch (error) {
    discard(fs, temp, fd);
    throw new ResultsWriteError(path, error);
  }
}
