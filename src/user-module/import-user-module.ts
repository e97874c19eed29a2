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
    module = load(path, source, field).finally(() => loading.delete(path));
    imported.set(path, module);
    // A failed import is not remembered: the user may fix the file and try again in the same process.
    module.catch(() => imported.delete(path));
  }
  return module;
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
    const lines = (error instanceof Error ? error.message : String(error)).split('\n');
    // A compile error's first line says only that it failed; the line naming file:line:col says where.
    const where = lines.slice(1).find((line) => line.includes(path));
    const reason = [lines[0] ?? '', where?.trim()].filter((part) => part !== undefined && part !== '').join(' ');
    throw UserInputError.single(source, field, `a module that loads; '${path}' failed: ${reason}`);
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
