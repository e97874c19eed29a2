/**
 * How a write can be seen: a read-only tool whose answer counts the writes that a call of
 * the writing tool adds one to (emails sent to a recipient, refunds of an order, writes
 * under a key). A guard that verifies writes reads it before and after the write.
 *
 * @example
 * const readBack: ReadBack = { tool: 'list_sent_emails', input: { to: 'to' }, count: 'count' };
 */
export interface ReadBack {
  /** The read-only tool that shows the writes. */
  readonly tool: string;
  /** Its arguments, each taken from the write's argument of the name given: `{ to: 'to' }`. */
  readonly input: Readonly<Record<string, string>>;
  /** The field of its answer that counts the writes; an answer without it counts none. */
  readonly count: string;
}

/** The read-back's arguments for one write. */
export function readBackInput(readBack: ReadBack, writeInput: unknown): Record<string, unknown> {
  const write = typeof writeInput === 'object' && writeInput !== null ? (writeInput as Record<string, unknown>) : {};
  const input: Record<string, unknown> = {};
  for (const [name, from] of Object.entries(readBack.input)) input[name] = write[from];
  return input;
}
