/** The text of an error for a `failed` result's reason, on one line, prefixed with the loop that raised it. */
export function errorReason(loop: string, error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${loop}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}
