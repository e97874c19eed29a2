import { existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserInputError } from '../user-input-error.js';

/** Extensions read as TypeScript (through tsx); anything else is imported by Node as it is. */
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** A user module's exports, by name. */
export type UserModule = Readonly<Record<string, unknown>>;

const imported = new Map<string, Promise<UserModule>>();

/** The modules this thread is importing now, by absolute path: where a process that stops mid-import says it stopped. */
const loading = new Set<string>();

/** The paths of the user modules this thread has started importing and not finished. */
export function modulesLoading(): readonly string[] {
  return [...loading];
}

/**
 * Where a module path given in `source` (a flag, or a file that names it) points: an
 * absolute path as it is, a relative one from `baseDir` (the file's folder, or the
 * working directory for a flag).
 */
export function userModulePath(path: string, baseDir: string): string {
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/**
 * The user's module at `path` (absolute), imported once per thread: TypeScript through
 * tsx, so an agent, a guard or a tool module needs no build step. `source` and `field`
 * name where the path was given, for the one message a missing or broken module gets.
 */
export function importUserModule(path: string, source: string, field = ''): Promise<UserModule> {
  let module = imported.get(path);
  if (module === undefined) {
    loading.add(path);
    const stall = stallWatch(path, source, field);
    module = Promise.race([load(path, source, field), stall.refused]).finally(() => {
      loading.delete(path);
      stall.stop();
    });
    imported.set(path, module);
    // A failed import is not remembered: the user may fix the file and try again in the same process.
    module.catch(() => imported.delete(path));
  }
  return module;
}

/** The environment variable that sets how long a module may take to load, in seconds. */
export const MODULE_LOAD_TIMEOUT_VARIABLE = 'SPIRALBENCH_MODULE_LOAD_TIMEOUT';

/** How long a module may take to load when the variable is not set: room for a slow import, not for a hang. */
export const DEFAULT_MODULE_LOAD_TIMEOUT_S = 120;

/** The load timeout in seconds, from the environment: a positive number, or the default. */
export function moduleLoadTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const given = env[MODULE_LOAD_TIMEOUT_VARIABLE];
  if (given === undefined || given === '') return DEFAULT_MODULE_LOAD_TIMEOUT_S;
  const seconds = Number(given);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw UserInputError.single(MODULE_LOAD_TIMEOUT_VARIABLE, '', `a number of seconds above 0, got '${given}'`);
  return seconds;
}

/** Refusals of the imports in flight whose top-level await can never settle, by path: see refuseStalledImports. */
const stalled = new Map<string, () => void>();

/**
 * A module's top-level await that never settles would hold its import forever (Node
 * exits 13 without a word once nothing else is left). Loading is not the seeded core, so
 * a wall-clock limit is fair here; its timer is unref'd, so an await that nothing can
 * settle is refused as soon as the process is idle (refuseStalledImports), not at the limit.
 */
function stallWatch(
  path: string,
  source: string,
  field: string,
): { readonly refused: Promise<never>; readonly stop: () => void } {
  const seconds = moduleLoadTimeoutSeconds();
  let refuse: (why: string) => void = () => {};
  const refused = new Promise<never>((_, reject) => {
    refuse = (why) =>
      reject(UserInputError.single(source, field, `a module that loads; '${path}' did not finish loading${why}`));
  });
  refused.catch(() => {}); // the race reports it; unraced it is nobody's
  const timer = setTimeout(
    () => refuse(` within ${seconds} s (${MODULE_LOAD_TIMEOUT_VARIABLE} sets the limit)`),
    seconds * 1000,
  );
  timer.unref();
  stalled.set(path, () => refuse(': its top-level await can never settle (nothing is left that could settle it)'));
  return {
    refused,
    stop: () => {
      clearTimeout(timer);
      stalled.delete(path);
    },
  };
}

/**
 * Called when this thread has nothing left to do (the process's beforeExit): every import
 * still in flight awaits what can never settle, so each is refused with one message, and
 * the command that waited on it ends with exit 2. Returns whether there was any.
 */
export function refuseStalledImports(): boolean {
  const refusals = [...stalled.values()];
  for (const refuse of refusals) refuse();
  return refusals.length > 0;
}

async function load(path: string, source: string, field: string): Promise<UserModule> {
  if (!existsSync(path) || !statSync(path).isFile())
    throw UserInputError.single(source, field, `a module file that exists; '${path}' does not`);
  const url = pathToFileURL(path).href;
  try {
    if (!TYPESCRIPT.has(extname(path))) return (await import(url)) as UserModule;
    const { tsImport } = await import('tsx/esm/api');
    return esModuleOf((await tsImport(url, import.meta.url)) as UserModule);
  } catch (error) {
    // tsx names the file with a query of its own (`?namespace=…`): not the user's path.
    const lines = (error instanceof Error ? error.message : String(error))
      .replace(/\?namespace=[\w-]+/g, '')
      .split('\n');
    // A compile error's first line says only that it failed; the line naming file:line:col says where.
    const where = lines.slice(1).find((line) => line.includes(path));
    const reason = [lines[0] ?? '', where?.trim()].filter((part) => part !== undefined && part !== '').join(' ');
    throw UserInputError.single(
      source,
      field,
      `a module that loads; '${path}' failed: ${reason}${installHint(reason)}`,
    );
  }
}

/**
 * A TypeScript file in a CommonJS package is compiled to CommonJS: its exports arrive as
 * the default export, marked `__esModule`. They are the module's exports all the same.
 */
function esModuleOf(namespace: UserModule): UserModule {
  const inner = namespace['default'];
  return typeof inner === 'object' && inner !== null && (inner as UserModule)['__esModule'] === true
    ? (inner as UserModule)
    : namespace;
}

/**
 * The export of a user module that `accepts`: the one named `name` when given, else the
 * default export, else the only export that fits. One clear message when none does.
 */
export function pickExport<T>(
  module: UserModule,
  accepts: (value: unknown) => value is T,
  what: string,
  where: { readonly source: string; readonly field?: string; readonly path: string; readonly name?: string },
): T {
  const field = where.field ?? '';
  if (where.name !== undefined) {
    const value = module[where.name];
    if (accepts(value)) return value;
    throw UserInputError.single(where.source, field, `${what} exported as '${where.name}' from '${where.path}'`);
  }
  if (accepts(module['default'])) return module['default'];
  const fitting = Object.values(module).filter(accepts);
  if (fitting.length === 1) return fitting[0]!;
  throw UserInputError.single(
    where.source,
    field,
    fitting.length === 0
      ? `${what} as the default export of '${where.path}' (none found)`
      : `one ${what} in '${where.path}', or its export named with #<name>; it exports ${fitting.length}`,
  );
}

/**
 * What to do when a user module cannot import spiralbench itself: it is resolved from the
 * module's own folder, as any package is, so it must be installed (or linked) there.
 */
function installHint(reason: string): string {
  if (!/Cannot find (?:module|package) '(?:spiralbench)(?:\/[^']*)?'/.test(reason)) return '';
  return ' (spiralbench must be installed where the module can import it: in its project, `npm install --save-dev spiralbench`; with a clone of spiralbench, `npm link` in the clone, then `npm link spiralbench` in the project)';
}
