import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
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
    throw new FileUnreadable(file, error);
  } finally {
    lines.close();
    input.destroy();
  }
}

/**
 * Calls `onLine` for each line of `file` between byte `start` (a line's first byte) and
 * `end`, synchronously, in chunks: its text (a trailing carriage return dropped), its byte
 * offset and length. Blank lines are passed too, so a caller can count lines. `onLine`
 * returns false to stop early.
 */
export function forEachLineSync(
  file: string,
  start: number,
  end: number,
  onLine: (text: string, offset: number, bytes: number) => boolean | undefined,
  onRead: (bytes: number) => void = () => {},
): void {
  const fd = readable(file, () => openSync(file, 'r'));
  try {
    let buffer = Buffer.allocUnsafe(CHUNK);
    let held = 0; // bytes of an unfinished line kept at the buffer's start
    let heldAt = start; // the file offset of buffer[0]
    let position = start;
    for (;;) {
      const read =
        position < end
          ? readable(file, () => readSync(fd, buffer, held, Math.min(buffer.length - held, end - position), position))
          : 0;
      position += read;
      onRead(read);
      const filled = held + read;
      let from = 0;
      for (;;) {
        let newline = buffer.indexOf(NEWLINE, from);
        if (newline === -1 || newline >= filled) {
          // At the range's end what is held is its last line, without a newline.
          if (read > 0 || from >= filled) break;
          newline = filled;
        }
        const to = newline > from && buffer[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
        if (onLine(buffer.toString('utf8', from, to), heldAt + from, to - from) === false) return;
        from = newline + 1;
      }
      if (read === 0) return;
      held = filled - from;
      if (held === buffer.length) {
        // One line longer than the buffer: room for it.
        const grown = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(grown, 0, 0, held);
        buffer = grown;
      } else buffer.copy(buffer, 0, from, filled);
      heldAt += from;
    }
  } finally {
    closeSync(fd);
  }
}

const CHUNK = 4 << 20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * A file the system would not read (gone, renamed, not permitted, an I/O error): bad input
 * like any other, named with the file, but a state of the machine, not of the file's
 * content, which may be gone the next time it is asked for.
 */
export class FileUnreadable extends UserInputError {
  /** What the system said. */
  readonly reason: string;

  constructor(file: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super([{ source: file, field: '', expected: `a readable file (${reason})` }]);
    this.reason = reason;
  }
}

/**
 * `read()`, with a failure of the file system (gone, renamed, unreadable) said as a
 * UserInputError naming the file, as `forEachLine` says it.
 */
export function readable<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (typeof (error as { code?: unknown }).code !== 'string') throw error;
    throw new FileUnreadable(file, error);
  }
}
