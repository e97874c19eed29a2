import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserInputError } from '../user-input-error.js';
import { LOCK_FILE } from './results-files.js';

/** The process writing a results folder, as its lock file names it. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
}

/** A held lock on a results folder; `release` gives it up (once, and only while it is still ours). */
export interface FolderLock {
  readonly path: string;
  release(): void;
}

/** What a lock file says: nobody (it is gone), somebody, or nothing readable (being written, or damaged). */
type LockState =
  | { readonly kind: 'free' }
  | { readonly kind: 'held'; readonly holder: LockHolder }
  | { readonly kind: 'unreadable' };

/** Locks this process holds: its own pid in a lock file is stale unless listed here. */
const held = new Set<string>();

/**
 * A process that exits while it holds a lock (a run awaiting what never settles, an error
 * nothing caught) gives the lock up on the way out, so its folder is not left refused
 * until a later run notices the pid is gone. Its progress stays: `--resume` continues it.
 */
let releasedOnExit = false;
function releaseOnExit(): void {
  if (releasedOnExit) return;
  releasedOnExit = true;
  process.once('exit', () => {
    for (const path of [...held]) release(path, { pid: process.pid, host: hostname() });
  });
}

/**
 * Takes the lock of a results folder: `spiralbench.lock`, created exclusively, holding
 * this process's pid and host. A folder another live process holds is refused; a lock
 * left by a process that is gone (killed, crashed) is taken over, with a note.
 */
export function acquireFolderLock(dir: string, note: (line: string) => void): FolderLock {
  const path = join(dir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: hostname() };
  // A few tries at most: a stale lock is cleared and the create tried again. Losing
  // that race means another process took the lock first, and it is refused like any holder.
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const state = readLock(path);
      if (state.kind === 'free') continue;
      if (state.kind === 'unreadable' || isAlive(state.holder, path))
        throw UserInputError.single(path, '', refusal(state, 'a results folder no other process is writing'));
      note(
        `note: ${path}: process ${state.holder.pid}, which was writing this folder, is no longer running; taking over its lock`,
      );
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(mine)}\n`);
    } finally {
      closeSync(fd);
    }
    held.add(path);
    releaseOnExit();
    return { path, release: () => release(path, mine) };
  }
  throw UserInputError.single(path, '', refusal(readLock(path), 'a results folder no other process is writing'));
}

/**
 * Refuses a folder a live process is writing (readers must not take half a sweep for a
 * whole one), with `expected` saying what the reader needed.
 */
export function refuseIfLocked(dir: string, expected: string): void {
  const path = join(dir, LOCK_FILE);
  const state = readLock(path);
  if (state.kind === 'held' && isAlive(state.holder, path))
    throw UserInputError.single(dir, '', refusal(state, expected));
}

function refusal(state: LockState, expected: string): string {
  if (state.kind !== 'held')
    return `${expected}; its lock file is being written or is damaged: if no spiralbench is writing this folder, remove it`;
  const where = state.holder.host === hostname() ? '' : ` on ${state.holder.host}`;
  return `${expected}; it is in use by process ${state.holder.pid}${where}: wait for it to finish, or use another folder`;
}

function release(path: string, mine: LockHolder): void {
  if (!held.delete(path)) return;
  // Only our own lock: had another process taken it over, removing it would let a third in.
  const state = readLock(path);
  if (state.kind === 'held' && state.holder.pid === mine.pid && state.holder.host === mine.host)
    rmSync(path, { force: true });
}

function readLock(path: string): LockState {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'free' };
    return { kind: 'unreadable' };
  }
  try {
    const value = JSON.parse(text) as { pid?: unknown; host?: unknown } | null;
    const pid = value?.pid;
    if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return { kind: 'unreadable' };
    return { kind: 'held', holder: { pid, host: typeof value?.host === 'string' ? value.host : hostname() } };
  } catch {
    return { kind: 'unreadable' };
  }
}

/** Whether the holder may still be writing. A process on another host cannot be checked, so it counts as alive. */
function isAlive(holder: LockHolder, path: string): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return held.has(path);
  return processAlive(holder.pid);
}

/** Whether a process of this machine is running: it answers signal 0 and, where /proc tells, is no zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // A killed process whose parent has not reaped it yet still answers signal 0.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
