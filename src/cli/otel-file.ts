import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserInputError } from '../user-input-error.js';

/**
 * The absolute path `--otel <file>` names, checked before the sweep starts: a sweep that
 * ran for an hour should not fail at the end for a typo in the folder.
 */
export function otelFile(value: string): string {
  if (value.trim() === '') throw UserInputError.single('--otel', '', 'a file path; an empty one names no file');
  const path = resolve(value);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true)
    throw UserInputError.single('--otel', '', `a file path, not the folder ${path}`);
  const folder = dirname(path);
  if (statSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true)
    throw UserInputError.single('--otel', '', `a file in an existing folder; there is no folder ${folder}`);
  return path;
}
