import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { acquireFolderLock, processAlive, refuseIfLocked } from './folder-lock.js';

const folder = () => mkdtempSync(join(tmpdir(), 'spiralbench-lock-'));
/** A pid no process has any more (spawned, exited and reaped). */
const deadPid = () => spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid;
const noNotes = () => {
  throw new Error('no note expected');
};

describe('acquireFolderLock', () => {
  it('holds the pid and host in spiralbench.lock until released', () => {
    const dir = folder();
    const lock = acquireFolderLock(dir, noNotes);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lock.release();
  });

  it('refuses a folder a live process holds, naming the lock file and the process', () => {
    const dir = folder();
    const lock = acquireFolderLock(dir, noNotes);
    expect(() => acquireFolderLock(dir, noNotes)).toThrow(
      new UserInputError([
        {
          source: lock.path,
          field: '',
          expected: `a results folder no other process is writing; it is in use by process ${process.pid}: wait for it to finish, or use another folder`,
        },
      ]),
    );
    expect(() => refuseIfLocked(dir, 'a finished sweep folder')).toThrow(/in use by process/);
    lock.release();
    refuseIfLocked(dir, 'a finished sweep folder');
  });

  it('takes over the lock of a process that is gone, with a note', () => {
    const dir = folder();
    const pid = deadPid();
    writeFileSync(join(dir, 'spiralbench.lock'), JSON.stringify({ pid, host: hostname() }));
    refuseIfLocked(dir, 'a finished sweep folder');
    const notes: string[] = [];
    const lock = acquireFolderLock(dir, (line) => notes.push(line));
    expect(notes).toEqual([
      `note: ${lock.path}: process ${pid}, which was writing this folder, is no longer running; taking over its lock`,
    ]);
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('refuses an unreadable lock (being written, or damaged) and a lock of another host, which cannot be checked', () => {
    const dir = folder();
    writeFileSync(join(dir, 'spiralbench.lock'), '');
    expect(() => acquireFolderLock(dir, noNotes)).toThrow(
      /lock file is being written or is damaged: if no spiralbench/,
    );
    writeFileSync(join(dir, 'spiralbench.lock'), JSON.stringify({ pid: deadPid(), host: 'elsewhere' }));
    expect(() => acquireFolderLock(dir, noNotes)).toThrow(/in use by process \d+ on elsewhere/);
  });

  it('releases only its own lock', () => {
    const dir = folder();
    const lock = acquireFolderLock(dir, noNotes);
    writeFileSync(lock.path, JSON.stringify({ pid: 1, host: hostname() }));
    lock.release();
    expect(existsSync(lock.path)).toBe(true);
  });
});

describe.skipIf(!existsSync('/proc/self/stat'))('processAlive', () => {
  it('is true for a running process, false for one that exited, and false for a zombie its parent has not reaped', async () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(deadPid())).toBe(false);
    // A parent that starts a child which exits at once, then blocks its own event loop: the child stays a zombie.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        "const c = require('node:child_process').spawn('true'); console.log(c.pid); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20000);",
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout.once('data', (data: Buffer) => resolve(data.toString()))),
      );
      const state = () => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      };
      while (state() !== 'Z') await new Promise((resolve) => setImmediate(resolve));
      expect(processAlive(pid)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
