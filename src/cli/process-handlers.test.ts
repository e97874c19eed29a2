import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ResultsWriteError } from '../results/results-fs.js';
import { EXIT } from './exit-codes.js';
import { dropWritesOnBrokenPipe, finishCommand, reportUnexpected, stoppedMidRun } from './process-handlers.js';

const errno = (code: string) => Object.assign(new Error(`write ${code}`), { code });

describe('dropWritesOnBrokenPipe', () => {
  it('drops what is written after the reader has gone, and lets the command go on', async () => {
    const stream = new PassThrough();
    dropWritesOnBrokenPipe(stream);
    stream.emit('error', errno('EPIPE'));
    const written = vi.fn();
    expect(stream.write('the rest of the table\n', written)).toBe(true);
    await new Promise((settled) => setImmediate(settled));
    expect(written).toHaveBeenCalledOnce();
    expect(stream.read()).toBeNull();
  });

  it('leaves any other write error to the unexpected-error handling', () => {
    const stream = new PassThrough();
    dropWritesOnBrokenPipe(stream);
    expect(() => stream.emit('error', errno('EIO'))).toThrow('write EIO');
  });
});

describe('reportUnexpected', () => {
  it('prints one line and a hint, or the stack with --verbose, and returns the unexpected-error code', () => {
    const error = new Error('disk full');
    const quiet = new PassThrough();
    expect(reportUnexpected(error, false, quiet)).toBe(EXIT.unexpected);
    expect(quiet.read()?.toString()).toBe(
      'spiralbench: unexpected error: disk full\n(run again with --verbose for a stack trace)\n',
    );
    const verbose = new PassThrough();
    reportUnexpected(error, true, verbose);
    expect(verbose.read()?.toString()).toMatch(/^spiralbench: unexpected error: Error: disk full\n\s+at /);
  });
});

describe('reportUnexpected on a full disk', () => {
  it.each(['ENOSPC', 'EDQUOT'])(
    'a write failing with %s, however deep in the causes, is a full disk: its own code',
    (code) => {
      const full = new ResultsWriteError('/data/results/runs.jsonl', errno(code));
      const stopped = new Error(`serve stopped: ${full.message}`, { cause: full });
      const stderr = new PassThrough();
      expect(reportUnexpected(stopped, false, stderr)).toBe(EXIT.diskFull);
      expect(stderr.read()?.toString()).toBe(
        `spiralbench: disk full: serve stopped: could not write /data/results/runs.jsonl (write ${code}); what was there before is unchanged\n`,
      );
    },
  );

  it('leaves any other write failure unexpected', () => {
    expect(reportUnexpected(new ResultsWriteError('/x', errno('EIO')), false, new PassThrough())).toBe(EXIT.unexpected);
  });
});

describe('stoppedMidRun', () => {
  it('names the run that can never settle and exits 3; with no run in flight it does nothing', () => {
    const stderr = new PassThrough();
    const exits: number[] = [];
    stoppedMidRun(undefined, stderr, (code) => exits.push(code));
    expect([stderr.read(), exits]).toEqual([null, []]);
    stoppedMidRun({ scenario: 'lookup-readonly', arm: 'agent:stuck', seed: 7 }, stderr, (code) => exits.push(code));
    expect(stderr.read()?.toString()).toMatch(
      /^spiralbench: run stalled: arm agent:stuck, scenario lookup-readonly, seed 7 is waiting on a promise that can never settle/,
    );
    expect(exits).toEqual([3]);
  });
});

describe('finishCommand', () => {
  it('ends the command once its output is flushed, whatever its code and whatever user code left running', async () => {
    const exits: number[] = [];
    const saved = process.exitCode;
    try {
      finishCommand(0, (code) => exits.push(code));
      finishCommand(2, (code) => exits.push(code));
      await new Promise((done) => process.stderr.write('', done));
      await new Promise(setImmediate);
      expect(exits).toEqual([0, 2]);
    } finally {
      process.exitCode = saved;
    }
  });
});
