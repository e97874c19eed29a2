import { expect } from 'vitest';

/** The error a matcher failed with (its message, and its stack), or a failure of the test if it passed. */
export async function failureOf(assertion: Promise<void>): Promise<Error> {
  const error = await assertion.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, 'the matcher passed').toBeInstanceOf(Error);
  return error as Error;
}
