import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { nonRegularKind } from '../results/file-kind.js';
import { UserInputError } from '../user-input-error.js';

/**
 * The absolute path `--otel <file>` names, checked before the sweep starts: a sweep that
 * ran for an hour should not fail at the end for a typo in the folder. Only a new path or
 * a regular file is taken: the spans are renamed into place, which would replace a link,
 * a FIFO or a device (`--otel /dev/stdout`) with a file.
 */
export function otelFile(value: string): string {
  if (value.trim() === '') throw UserInputError.single('--otel', '', 'a file path; an empty one names no file');
  const path = resolve(value);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true)
    throw UserInputError.single('--otel', '', `a file path, not the folder ${path}`);
  const kind = nonRegularKind(path);
  if (kind !== undefined)
    throw UserInputError.single(
      '--otel',
      '',
      `a new path or a regular file; ${path} is ${kind}, which writing the spans would replace`,
    );
  const folder = dirname(path);
  if (statSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true)
    throw UserInputError.single('--otel', '', `a file in an existing folder; there is no folder ${folder}`);
  return path;
}
