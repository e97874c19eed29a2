import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { UserInputError } from '../user-input-error.js';

/**
 * Calls `onLine` for each line of `file` with its 1-based number, streaming (a big
 * sweep's runs.jsonl does not fit in memory twice), up to byte `end` (exclusive) when
 * given. Blank lines are skipped. A read failure is a UserInputError naming the file;
 * whatever `onLine` throws is passed on.
 */
export async function forEachLine(
  file: string,
  onLine: (line: string, lineNumber: number) => void,
  end?: number,
): Promise<void> {
  if (end === 0) return;
  const input = createReadStream(file, end === undefined ? {} : { start: 0, end: end - 1 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  let failed = false;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      try {
        onLine(line, lineNumber);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  } catch (error) {
    if (failed || error instanceof UserInputError) throw error;
    throw UserInputError.single(file, '', `a readable file (${(error as Error).message})`);
  } finally {
    lines.close();
    input.destroy();
  }
}
