import { sep } from 'node:path';

/**
 * How the user starts this CLI again from their shell, decided from the script the process
 * was started with: from a project's `node_modules` (`npx spiralbench`, an npm script,
 * `node_modules/.bin/spiralbench`, or npx's own cache) the command is not on the PATH, so
 * it is `npx spiralbench`; from anywhere else (a global install, `npm link` of a clone,
 * `node bin/spiralbench.js` in a clone) it is `spiralbench`.
 *
 * @example
 * cliCommand('/work/app/node_modules/.bin/spiralbench') // 'npx spiralbench'
 * cliCommand('/usr/local/bin/spiralbench') // 'spiralbench'
 */
export function cliCommand(script: string = process.argv[1] ?? ''): 'npx spiralbench' | 'spiralbench' {
  const parts = script.split(sep === '\\' ? /[\\/]/ : '/');
  return parts.includes('node_modules') ? 'npx spiralbench' : 'spiralbench';
}

/** A printed `spiralbench …` command as this user types it (see cliCommand). */
export function asTyped(command: string, script?: string): string {
  return command.startsWith('spiralbench ') ? `${cliCommand(script)}${command.slice('spiralbench'.length)}` : command;
}
