import { z } from 'zod';

/** A value as a message shows it: short, and saying so when the field is missing. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  // JSON's 1e400 reads as Infinity, which JSON.stringify would show as null.
  if (typeof value === 'number') return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const expecting =
  (what: string) =>
  (issue: { readonly input?: unknown }): string =>
    `${what}; got ${shown(issue.input)}`;

/** A count: a whole number from 0 up to 2^53 - 1 (JSON's huge numbers and fractions are refused). */
export const count = z
  .number({ error: expecting('a non-negative whole number') })
  .int({ error: expecting('a non-negative whole number') })
  .min(0, { error: expecting('a non-negative whole number') });

/** A finite number of at least 0 (a time or a price). */
export const amount = z
  .number({ error: expecting('a non-negative number') })
  .min(0, { error: expecting('a non-negative number') });

/** A whole number, negative or not. */
export const whole = z.number({ error: expecting('a whole number') }).int({ error: expecting('a whole number') });

/** Any finite number. */
export const finite = z.number({ error: expecting('a number') });

export const text = z.string({ error: expecting('a string') });
export const name = z
  .string({ error: expecting('a non-empty string') })
  .min(1, { error: expecting('a non-empty string') });
export const flag = z.boolean({ error: expecting('true or false') });

/** Counts by name (fault kinds, event types): a newer writer may add names, so any name is read. */
export const counts = z.record(z.string(), count, { error: expecting('an object of counts by name') });

/** One of `values`, naming them all. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: expecting(`one of ${values.join(', ')}`) });
}

/** Why a failed run failed (`failure_reason` on a run record and on a trace's record). */
export const failureReason = z.object({
  /** The error's class, e.g. `AuthenticationError`, `APIConnectionError`. */
  error_class: text,
  /** The HTTP status the server answered with; null when there was no answer (connection, timeout). */
  status: whole.nullable(),
  /** What the server (or the network) said, scrubbed of keys by the client that raised it. */
  message: text,
});
export type FailureReason = Readonly<z.infer<typeof failureReason>>;
