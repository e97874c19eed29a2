import { UserInputError } from '../user-input-error.js';
import { VERSION } from '../version.js';

/**
 * The layout of a results folder (which files, which fields mean what). Written into
 * meta.json and progress.json; a folder without it was written before it existed and is
 * version 1. Raise it when a reader of the old version would misread the new files.
 */
export const FORMAT_VERSION = 1;

/** The versions this spiralbench reads. */
const READABLE: readonly number[] = [1];

/** The folder's version, or a UserInputError naming the file when this spiralbench cannot read it. */
export function checkFormatVersion(version: number | undefined, source: string): number {
  const found = version ?? 1;
  if (READABLE.includes(found)) return found;
  throw UserInputError.single(
    source,
    'format_version',
    `${READABLE.join(' or ')} (the results format spiralbench ${VERSION} reads); got ${found}: the folder was written by another version of spiralbench`,
  );
}
