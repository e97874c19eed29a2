import { type InputProblem, UserInputError } from '../user-input-error.js';

/** A UserInputError as it crosses from a pool worker: a structured clone keeps no class. */
interface CrossingUserInput {
  readonly kind: 'spiralbench.user-input';
  readonly problems: readonly InputProblem[];
}

/**
 * What a worker throws for `error`: bad input (a user module that fails to import only in
 * a worker thread) as plain data, everything else as it is.
 */
export function crossingError(error: unknown): unknown {
  if (error instanceof UserInputError)
    return { kind: 'spiralbench.user-input', problems: error.problems } satisfies CrossingUserInput;
  return error;
}

/** The error a worker threw, as the main thread rethrows it: bad input is a UserInputError again (exit 2). */
export function crossedError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const crossing = error as Partial<CrossingUserInput>;
  if (crossing.kind === 'spiralbench.user-input' && Array.isArray(crossing.problems))
    return new UserInputError(crossing.problems);
  return error;
}
