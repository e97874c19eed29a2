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
  return `user code called process.exit(${shown}) ${where}; the harness's exit code is not user code's to set, so the sweep stops here with its finished runs kept (return or throw instead; once the module is fixed, run the sweep again with --overwrite: --resume refuses a changed module, whose runs would be mixed with these)`;
}

type Exit = (code?: number | string | null) => never;

/** A thread's exits: `exit` as users call it, and `reallyExit`, the runtime's own that `exit` ends in. */
interface Exits {
  exit: Exit;
  reallyExit?: (code?: number) => never;
}

/**
 * Replaces `target.exit` with `trap`, and `target.reallyExit` (the runtime's exit that
 * `exit` ends in, which code can also call itself) with the same trap unless the harness
 * is the one exiting; returns the original exit, the only one the harness itself calls.
 * Installed once per thread: a second call returns the first original.
 */
export function trapProcessExit(trap: (code: unknown) => never, target: Exits = process as unknown as Exits): Exit {
  const original = originals.get(target) ?? target.exit.bind(target);
  originals.set(target, original);
  target.exit = ((code?: number | string | null) => trap(code)) as Exit;
  const really = target.reallyExit;
  if (really !== undefined && !trappedReally.has(target)) {
    trappedReally.add(target);
    // Once the harness exits, its code is the one that ends the process, whoever calls.
    target.reallyExit = ((code?: number) => {
      const decided = exiting.get(target);
      return decided !== undefined ? really.call(target, decided) : trap(code);
    }) as (code?: number) => never;
  }
  return original;
}

const originals = new WeakMap<object, Exit>();
const trappedReally = new WeakSet<object>();
/** Threads whose harness has started its exit, with its code: their `reallyExit` ends with that code from then on. */
const exiting = new WeakMap<object, number>();

/**
 * The exit the harness calls: the original `process.exit`, whether or not a trap is
 * installed, with `code` said again after every 'exit' listener user code added, and kept by
 * `reallyExit` whoever calls it, so none can turn a failed sweep into success
 * (`process.on('exit', () => { process.exitCode = 0 })`, or `process.reallyExit(0)` there).
 */
export function harnessExit(code: number): never {
  exiting.set(process, code);
  // Listeners run in the order they were added: this one, added last, has the last word.
  process.on('exit', () => {
    process.exitCode = code;
  });
  const original = originals.get(process);
  return original === undefined ? process.exit(code) : original(code);
}
