import type { z } from 'zod';
import { UserInputError, type InputProblem } from '../user-input-error.js';

/** Issues shown per file: the first few say what is wrong; a hundred more would hide it. */
const SHOWN_ISSUES = 10;

/** A zod failure as input problems: the field as a dotted path and what was expected there. */
export function schemaError(source: string, error: z.ZodError): UserInputError {
  const problems: InputProblem[] = error.issues
    .slice(0, SHOWN_ISSUES)
    .map((issue) => ({ source, field: issue.path.map(String).join('.'), expected: issue.message }));
  return new UserInputError(problems);
}

/**
 * JSON.parse for a results file: any failure (a syntax error, nesting too deep for the
 * stack) is a UserInputError naming the source, never another exception.
 */
export function parseJson(text: string, source: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw UserInputError.single(source, '', `${what}; got ${preview(text)} (${(error as Error).message})`);
  }
}

/** The start of a bad line, enough to recognise it. */
export function preview(text: string): string {
  if (text === '') return 'an empty line';
  return text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}…` : JSON.stringify(text);
}

/**
 * Checks `value` against `schema` and returns it, or throws a UserInputError naming
 * `source` and each bad field. The value itself is returned, not zod's copy: the schemas
 * transform nothing, and what is read back (arms, guard settings) is written again by a
 * merge or compared as JSON by a resume, so its key order must stay the file's.
 */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, source: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw schemaError(source, parsed.error);
  return value as T;
}
