import { writeSync } from 'node:fs';
import { escapeControl } from '../report/terminal-text.js';
import { runInFlight, whereUserCodeRuns } from '../sweep/run-in-flight.js';
import { isDiskFull } from '../results/results-fs.js';
import { refuseStalledImports } from '../user-module/import-user-module.js';
import { harnessExit, trapProcessExit, userExitMessage } from '../user-module/process-exit-trap.js';
import { EXIT } from './exit-codes.js';

/**
 * Prints an error nobody expected as one line (its stack with --verbose) and returns the
 * exit code for it. A full disk is not a bug: it is said in one line, with its own code.
 */
export function reportUnexpected(
  error: unknown,
  verbose: boolean,
  stderr: NodeJS.WritableStream = process.stderr,
): number {
  const text = error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : String(error);
  if (isDiskFull(error)) {
    stderr.write(`spiralbench: disk full: ${escapeControl(text, { newline: true, tab: true })}\n`);
    return EXIT.diskFull;
  }
  stderr.write(`spiralbench: unexpected error: ${escapeControl(text, { newline: true, tab: true })}\n`);
  if (!verbose) stderr.write('(run again with --verbose for a stack trace)\n');
  return EXIT.unexpected;
}

/**
 * The reader of our output went away (`spiralbench list | head -3`): what is left to write
 * is dropped, quietly, instead of an unhandled 'error' event's stack trace, and the command
 * carries on to its end and its own exit code. It must not stop there with 0: a sweep's
 * results still go to its folder, and a gate (`run --check`) still has to be passed or
 * failed, whoever reads what it prints.
 */
export function dropWritesOnBrokenPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    // Nobody reads it any more: a write is done at once, as a write to a full pipe's reader would be.
    stream.write = ((_chunk: unknown, encoding?: unknown, done?: unknown) => {
      const callback = typeof encoding === 'function' ? encoding : done;
      if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
      return true;
    }) as NodeJS.WritableStream['write'];
  });
}

/**
 * What the process does outside any command's own error handling: a broken pipe on
 * stdout or stderr drops what is left to write there, and an error thrown where nothing catches it (a
 * stream's or a socket's callback) ends it with the unexpected-error code, never with
 * Node's 1, which would read as "regression found". A `process.exit` made by user code
 * (the harness never calls it but through harnessExit) ends it with EXIT.userExit, at
 * any time, even after the command decided its code.
 */
export function installProcessHandlers(argv: readonly string[]): void {
  trapProcessExit((code) => {
    // Written synchronously: the process ends on the next line, and a pipe may be asynchronous.
    writeSync(2, `spiralbench: ${escapeControl(userExitMessage(code, whereUserCodeRuns()))}\n`);
    return harnessExit(EXIT.userExit);
  });
  dropWritesOnBrokenPipe(process.stdout);
  dropWritesOnBrokenPipe(process.stderr);
  const verbose = argv.includes('--verbose');
  const fail = (error: unknown) => harnessExit(reportUnexpected(error, verbose));
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  // An import that can never finish is refused first: its command then reports it (exit 2).
  process.on('beforeExit', () => {
    if (!refuseStalledImports()) stoppedMidRun();
  });
}

/**
 * The event loop emptied while a run was still waiting: it awaits a promise nothing can
 * settle any more (an agent or a tool that never resolves). Node would exit 13 without a
 * word; say which run it was and exit as an unexpected error. (A run kept alive by timers
 * that never ends is not caught here: see docs/agents.md, Limits.)
 */
export function stoppedMidRun(
  run = runInFlight(),
  stderr: NodeJS.WritableStream = process.stderr,
  exit: (code: number) => void = harnessExit,
): void {
  if (run === undefined) return;
  stderr.write(
    `spiralbench: run stalled: arm ${run.arm}, scenario ${run.scenario}, seed ${run.seed} is waiting on a promise that can never settle (nothing left to settle it); the sweep stops here, its finished runs kept (once the code is fixed, run the sweep again with --overwrite: --resume refuses a changed module, whose runs would be mixed with these)\n`,
  );
  exit(EXIT.unexpected);
}

/**
 * Ends the command with `code` once its output is flushed (a pipe can be asynchronous, as
 * on macOS). What user code left running must not hold the process open, whatever the
 * command's code: a timer in a module whose import was refused, or an agent stopped at
 * its call limit, parked on a request its client will time out in ten minutes.
 */
export function finishCommand(code: number, exit: (code: number) => void = harnessExit): void {
  process.exitCode = code;
  let pending = 2;
  const flushed = () => {
    pending -= 1;
    if (pending === 0) exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}
