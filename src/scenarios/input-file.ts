import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UserInputError } from '../user-input-error.js';

/** The largest scenario, persona or arms file read: a hundred times the largest bundled one. */
export const MAX_INPUT_FILE_BYTES = 4 * 1024 * 1024;

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The text of a user's input file, read with a bound: a regular file of at most
 * MAX_INPUT_FILE_BYTES. A device never ends and a FIFO waits for a writer, so neither
 * is read at all; a file that grows while it is read is cut off at the bound plus one
 * byte, which is enough to refuse it.
 */
export function readInputFile(path: string): string {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO with no writer returns instead of waiting.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw UserInputError.single(path, '', 'file not found or not readable');
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw UserInputError.single(path, '', `a regular file (this is ${kindOf(stats)})`);
    let buffer = Buffer.allocUnsafe(Math.min(stats.size, MAX_INPUT_FILE_BYTES) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > MAX_INPUT_FILE_BYTES) break;
        const grown = Buffer.allocUnsafe(Math.min(2 * length, MAX_INPUT_FILE_BYTES + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > MAX_INPUT_FILE_BYTES)
      throw UserInputError.single(
        path,
        '',
        `a file of at most ${MAX_INPUT_FILE_BYTES / 1024 / 1024} MiB (${MAX_INPUT_FILE_BYTES} bytes); this one is larger`,
      );
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof UserInputError) throw error;
    throw UserInputError.single(path, '', 'file not found or not readable');
  } finally {
    closeSync(fd);
  }
}
