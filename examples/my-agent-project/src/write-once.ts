import type { Guard } from 'spiralbench';

/**
 * Our own safeguard: a side-effecting tool is run at most once per id in a run; a second
 * call is answered without running it, so a confused model cannot write twice.
 */
export function writeOnce(tool: string): Guard {
  const written = new Set<string>();
  return {
    name: 'write-once',
    beforeToolCall: (call) => {
      if (call.name !== tool) return undefined;
      const id = String((call.input as Record<string, unknown>)['id']);
      if (!written.has(id)) {
        written.add(id);
        return undefined;
      }
      return {
        kind: 'answer',
        content: `${id} was already saved in this run; it was not saved again.`,
        isError: false,
      };
    },
  };
}
