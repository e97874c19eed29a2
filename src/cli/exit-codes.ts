/**
 * The process's exit codes, in one place: main() returns them, `spiralbench --help`
 * lists them and README's "Exit codes" section repeats them (a test keeps it equal).
 * A CI script tells "the agent regressed" (1) from "spiralbench broke" (3) by code alone.
 */
export const EXIT = {
  ok: 0,
  /** A check the user asked for did not pass: compare --fail-on-regression, run --check. */
  regression: 1,
  /** Bad input: a flag, a name, a file (or a folder this user may not write); the message names it and what was expected. */
  usage: 2,
  /** Anything else: a bug, or the machine. */
  unexpected: 3,
  /** The real model could not be reached, or refused the request (a key, a quota). */
  modelUnavailable: 4,
  /** A real sweep spent its --max-cost and stopped; the runs written are kept and --resume goes on. */
  spendLimit: 5,
  /** User code (an agent, a tools module, a guard) called process.exit; the sweep did not finish. */
  userExit: 6,
  /** An arm's first runs all failed with one error, no fault injected: a broken setup, not a result. */
  armCouldNotRun: 7,
  /**
   * The disk (or the user's quota) holding an output is full (ENOSPC, EDQUOT): what was
   * written stays, and the message names the file. sysexits.h's EX_IOERR, so that the
   * number cannot clash with a code of our own added later.
   */
  diskFull: 74,
  /** Ctrl-C: the shell's 128 + SIGINT; the sweep resumes with --resume. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Each code with what it means to a user, in the order --help and README list them. */
export const EXIT_CODE_MEANINGS: ReadonlyArray<readonly [ExitCode, string]> = [
  [EXIT.ok, 'done; no regression found'],
  [EXIT.regression, 'a regression was found (compare --fail-on-regression, run --check)'],
  [
    EXIT.usage,
    'bad input: a flag, a name, a file, or a folder this user may not write (the message says which and what was expected)',
  ],
  [EXIT.unexpected, 'an unexpected error (--verbose prints its stack trace)'],
  [EXIT.modelUnavailable, 'the real model could not be reached or refused the request'],
  [EXIT.spendLimit, 'a real sweep spent its --max-cost and stopped (resume it with --resume)'],
  [EXIT.userExit, 'user code (an agent, tools or guard module) called process.exit; the sweep did not finish'],
  [EXIT.armCouldNotRun, 'an arm could not run: its first 3 runs without an injected fault failed with one error'],
  [
    EXIT.diskFull,
    'the disk or quota holding the results is full; what was written is kept (the message names the file, and how to go on)',
  ],
  [EXIT.interrupted, 'interrupted (Ctrl-C); the same command with --resume continues the sweep'],
];

/** The exit-code table for the end of `spiralbench --help`. */
export function exitCodesHelp(): string {
  return [
    '',
    'Exit codes:',
    ...EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`),
  ].join('\n');
}
