import { type InputProblem, UserInputError } from '../user-input-error.js';
import { UserCodeExited } from '../user-module/process-exit-trap.js';

/** A UserInputError as it crosses from a pool worker: a structured clone keeps no class. */
interface CrossingUserInput {
  readonly kind: 'spiralbench.user-input';
  readonly problems: readonly InputProblem[];
}

/** A UserCodeExited as it crosses from a pool worker. */
interface CrossingUserExit {
  readonly kind: 'spiralbench.user-exit';
  readonly message: string;
}

/**
 * What a worker throws for `error`: bad input (a user module that fails to import only in
 * a worker thread) and a user's process.exit as plain data, everything else as it is.
 */
export function crossingError(error: unknown): unknown {
  if (error instanceof UserInputError)
    return { kind: 'spiralbench.user-input', problems: error.problems } satisfies CrossingUserInput;
  if (error instanceof UserCodeExited)
    return { kind: 'spiralbench.user-exit', message: error.message } satisfies CrossingUserExit;
  return error;
}

/**
 * The error a worker threw, as the main thread rethrows it: bad input is a UserInputError
 * again (exit 2), a user's process.exit a UserCodeExited (exit 6), also when it escaped
 * as the worker's uncaught error (thrown from a callback), which arrives by name.
 */
export function crossedError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const crossing = error as Partial<CrossingUserInput> & Partial<CrossingUserExit> & { readonly name?: unknown };
  if (crossing.kind === 'spiralbench.user-input' && Array.isArray(crossing.problems))
    return new UserInputError(crossing.problems);
  if (crossing.kind === 'spiralbench.user-exit' && typeof crossing.message === 'string')
    return new UserCodeExited(crossing.message);
  if (crossing.name === 'UserCodeExited' && typeof crossing.message === 'string')
    return new UserCodeExited(crossing.message);
  return error;
}
