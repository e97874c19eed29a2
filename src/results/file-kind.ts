import { lstatSync } from 'node:fs';

/**
 * What is at `path` when it is neither nothing nor a regular file, in words ("a symbolic
 * link", "a device"); undefined for a new path or a regular file. An atomic write renames
 * its file over the path, which replaces a link, a FIFO or a device node itself: those are
 * refused before, never written through or turned into a file.
 */
export function nonRegularKind(path: string): string | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined || stats.isFile()) return undefined;
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}
