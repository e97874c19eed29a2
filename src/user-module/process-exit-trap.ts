/**
 * User code (an agent, a tools module, a guard) runs in the harness's own threads, so its
 * `process.exit` would end the harness with the user's code: `process.exit(0)` in an agent
 * would pass a CI gate with no sweep run. Each thread that runs user code replaces
 * `process.exit` with a trap; the harness ends the process only through the original.
 */

/** User code called `process.exit`; the sweep it was part of did not finish. */
export class UserCodeExited extends Error {
  override readonly name = 'UserCodeExited';
}

/**
 * The one sentence for a `process.exit(code)` made by user code `where` (e.g. "in arm x,
 * scenario y, seed 3" or "while loading './agent.ts'").
 */
export function userExitMessage(code: unknown, where: string): string {
  const shown = code === undefined ? '' : String(code);
  return `user code called process.exit(${shown}) ${where}; the harness's exit code is not user code's to set, so the sweep stops here with its finished runs kept (return or throw instead; --resume continues once it is fixed)`;
}

type Exit = (code?: number | string | null) => never;

/**
 * Replaces `target.exit` with `trap` and returns the original, the only exit the harness
 * itself calls. Installed once per thread: a second call returns the first original.
 */
export function trapProcessExit(
  trap: (code: unknown) => never,
  target: { exit: Exit } = process as unknown as { exit: Exit },
): Exit {
  const original = originals.get(target) ?? target.exit.bind(target);
  originals.set(target, original);
  target.exit = ((code?: number | string | null) => trap(code)) as Exit;
  return original;
}

const originals = new WeakMap<object, Exit>();

/** The exit the harness calls: the original `process.exit`, whether or not a trap is installed. */
export function harnessExit(code: number): never {
  const original = originals.get(process);
  return original === undefined ? process.exit(code) : original(code);
}
