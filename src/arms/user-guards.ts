import { type GuardDescriptor, isGuardDescriptor } from '../loop/define-guard.js';
import { importUserModule, pickExport } from '../user-module/import-user-module.js';
import type { Arm, GuardSetting } from './arms.js';

/**
 * A user's guard in an arm: the name its descriptor gives it, the absolute path of its
 * module (and the export, when named with `#name`), and its settings as the descriptor
 * read them, defaults filled in. Plain data, so an arm crosses into pool workers whole.
 */
export type UserGuardSetting = {
  readonly guard: string;
  readonly module: string;
  readonly export?: string;
  /** The sha256 of the module's text, in results only (recordedArms), where `module` is shown relative. */
  readonly hash?: string;
  /** The files it imports from the project by shown path, with the sha256 of each, in results only (recordedArms). */
  readonly imports?: Readonly<Record<string, string>>;
  readonly settings: Readonly<Record<string, unknown>>;
};

/** Whether an arm's guard comes from a user's module rather than from spiralbench. */
export function isUserGuardSetting(setting: GuardSetting): setting is UserGuardSetting {
  // A built-in guard's settings never hold `module`: defineGuard refuses a setting so named.
  return 'module' in setting;
}

/** Descriptors of the user guards this thread has imported, by module path and export name. */
const loaded = new Map<string, GuardDescriptor>();

const keyOf = (path: string, name: string | undefined): string => (name === undefined ? path : `${path}#${name}`);

/**
 * The guard descriptor a user's module exports: the export `name` when given, else the
 * default export, else its only descriptor. Imported once per thread. `source` and `field`
 * name where the module was named, for the one message a missing module or export gets.
 */
export async function importUserGuard(
  path: string,
  name: string | undefined,
  source: string,
  field: string,
): Promise<GuardDescriptor> {
  const key = keyOf(path, name);
  const known = loaded.get(key);
  if (known !== undefined) return known;
  const module = await importUserModule(path, source, field);
  const descriptor = pickExport(module, isGuardDescriptor, 'a guard made with defineGuard', {
    source,
    field,
    path,
    ...(name === undefined ? {} : { name }),
  });
  loaded.set(key, descriptor);
  return descriptor;
}

/**
 * Imports the user guards of `arms` in this thread, so that building their guards for a
 * run stays synchronous. A no-op for arms of built-in guards only.
 */
export async function importArmGuards(arms: readonly Arm[]): Promise<void> {
  for (const arm of arms)
    for (const setting of arm.guards)
      if (isUserGuardSetting(setting))
        await importUserGuard(setting.module, setting.export, setting.module, `guard '${setting.guard}'`);
}

/** The descriptor of a user guard `importArmGuards` has imported in this thread. */
export function userGuardDescriptor(setting: UserGuardSetting): GuardDescriptor {
  const descriptor = loaded.get(keyOf(setting.module, setting.export));
  // Every path that runs an arm imports its guards first; reaching this is a harness bug.
  if (descriptor === undefined)
    throw new Error(`user guard '${setting.guard}' from ${setting.module} was not imported`);
  return descriptor;
}
