/** One problem with user input: where it is and what was expected there. */
export interface InputProblem {
  /** The file, flag or argument the problem is in. */
  readonly source: string;
  /** The field inside it, as a dotted path; empty when the whole source is wrong. */
  readonly field: string;
  readonly expected: string;
}

/**
 * Bad input from the user: a scenario file, a flag, a results file. The CLI prints it as
 * plain lines (no stack trace) and exits with code 2.
 */
export class UserInputError extends Error {
  override readonly name = 'UserInputError';
  readonly problems: readonly InputProblem[];

  constructor(problems: readonly InputProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.problems = problems;
  }

  static single(source: string, field: string, expected: string): UserInputError {
    return new UserInputError([{ source, field, expected }]);
  }
}

export function formatProblem({ source, field, expected }: InputProblem): string {
  return field === '' ? `${source}: ${expected}` : `${source}: ${field}: ${expected}`;
}
