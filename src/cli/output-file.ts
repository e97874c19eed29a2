import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { nonRegularKind } from '../results/file-kind.js';
import { SCENARIOS_DIR } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';

/** What a command may replace at its output path without being told to. */
export interface OutputFileRule {
  /** What the advice tells the user to choose another of: a flag (`--out`, `--html`) or `folder`. */
  readonly another: string;
  /** `--overwrite` was given: whatever is at the path is replaced. */
  readonly overwrite: boolean;
  /**
   * What the command writes, as a noun ("an HTML report"), and how to recognise one it
   * wrote from the file's first bytes: such a file is replaced freely (a report made again).
   * Without it, any file already there is refused.
   */
  readonly ours?: { readonly what: string; readonly test: (head: string) => boolean };
}

/** Enough of a file to find a marker near its start. */
const HEAD_BYTES = 64 * 1024;

/**
 * Checks, before the work that fills it, that writing `path` loses nothing the user did
 * not ask to lose: a new path, an empty regular file, or a file this command wrote is
 * taken; a file of anyone else's, a symbolic link, a device or a FIFO is refused, and so
 * is anything inside spiralbench's own bundled scenarios (what every run of this
 * installation reads), unless `--overwrite` says so. The refusal is one UserInputError
 * naming the path and the flag that goes on. Returns the absolute path.
 *
 * @example
 * const html = replaceableFile('reports/nightly.html', { another: '--html', overwrite: flags.overwrite, ours: REPORT_FILE });
 */
export function replaceableFile(path: string, rule: OutputFileRule): string {
  const absolute = resolve(path);
  if (rule.overwrite) return absolute;
  const go = `add --overwrite to replace it, or choose another ${rule.another}`;
  if (insideBundledScenarios(absolute))
    throw UserInputError.single(
      absolute,
      '',
      `a path outside spiralbench's bundled scenarios (${SCENARIOS_DIR}), which every run of this installation reads: add --overwrite if that is what you mean, or choose another ${rule.another}`,
    );
  const kind = nonRegularKind(absolute);
  if (kind !== undefined)
    throw UserInputError.single(
      absolute,
      '',
      `a new path or a regular file; this is ${kind}${kind === 'a symbolic link' ? ' (the link would be replaced, not what it points to)' : ''}: ${go}`,
    );
  const size = statSync(absolute, { throwIfNoEntry: false })?.size;
  if (size === undefined || size === 0) return absolute;
  if (rule.ours === undefined)
    throw UserInputError.single(absolute, '', `a new path; a file is already there, which this would replace: ${go}`);
  if (rule.ours.test(head(absolute))) return absolute;
  throw UserInputError.single(
    absolute,
    '',
    `a new path or ${rule.ours.what} spiralbench wrote; the file there is not one, and this would replace it: ${go}`,
  );
}

/** Whether `path` is in the package's scenarios folder, however either is reached (symbolic links resolved). */
function insideBundledScenarios(path: string): boolean {
  const inside = relative(realpathOrSelf(SCENARIOS_DIR), realpathOrSelf(path));
  return !inside.startsWith('..') && !isAbsolute(inside);
}

/** The real path of `path`, or of its nearest folder that exists, with the rest appended. */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(realpathOrSelf(parent), relative(parent, path));
  }
}

function head(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}
