/**
 * The user stopped a sweep (Ctrl-C) and it stopped cleanly. Not a failure of the tool:
 * main() prints how to resume and exits with the shell's code for it (128 + SIGINT).
 */
export class RunInterrupted extends Error {
  override readonly name = 'RunInterrupted';
}
