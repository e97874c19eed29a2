import { parse, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';

/**
 * The commander parser of every `-o, --out <dir>`: a folder the command fills with its
 * files. An empty path would quietly mean the current folder (`-o "$UNSET_VAR"`), and the
 * root of the file system is nobody's results folder.
 */
export function outputFolder(value: string): string {
  if (value.trim() === '')
    throw new InvalidArgumentError('expected a folder path; an empty one would write into the current folder.');
  const absolute = resolve(value);
  if (absolute === parse(absolute).root)
    throw new InvalidArgumentError(`expected a folder other than the root of the file system (${absolute}).`);
  return value;
}
