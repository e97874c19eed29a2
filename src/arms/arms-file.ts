import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { parseAgentSpec } from './agent-arm.js';
import { readInputFile } from '../scenarios/input-file.js';
import { parseYamlInput } from '../scenarios/yaml-input.js';
import { type InputProblem, UserInputError } from '../user-input-error.js';
import { userModulePath } from '../user-module/import-user-module.js';
import { type Arm, BUILT_IN_BY_NAME, type GuardSetting, reservedArmName, settingOf } from './arms.js';
import { importUserGuard, type UserGuardSetting } from './user-guards.js';

/** A guard entry whose `guard` is a path names a user's module: `./x.ts`, `../x.ts` or `/abs/x.ts`, optionally `#export`. */
const MODULE_PATH = /^(\.\.?)?\//;

/** A guard entry as the file's schema reads it: a built-in guard's settings, or a user module still to import. */
type GuardEntry =
  | { readonly kind: 'built-in'; readonly setting: GuardSetting }
  | { readonly kind: 'module'; readonly path: string; readonly settings: Readonly<Record<string, unknown>> };

const EXPECTED_GUARD = `a built-in guard (${[...BUILT_IN_BY_NAME.keys()].join(', ')}) or the path of a guard module (starting with ./, ../ or /)`;

/**
 * One guard entry, read by its own descriptor's settings schema: an arms file is as strict
 * as each guard's schema, and nothing here restates a guard's settings.
 */
const guardEntry = z.looseObject({ guard: z.string() }).transform((entry, ctx): GuardEntry => {
  const { guard, ...settings } = entry;
  if (MODULE_PATH.test(guard)) return { kind: 'module', path: guard, settings };
  const descriptor = BUILT_IN_BY_NAME.get(guard);
  if (descriptor === undefined) {
    ctx.addIssue({ code: 'custom', path: ['guard'], message: EXPECTED_GUARD, input: guard });
    return z.NEVER;
  }
  const parsed = descriptor.settings.safeParse(settings);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return { kind: 'built-in', setting: settingOf(descriptor, parsed.data) };
});

const armName = z.string().regex(/^[a-z0-9][a-z0-9:_-]*$/, 'lower-case letters, digits, -, _ or :');

/** A user's agent as an arm: its module (relative to the arms file, `#export` optional) and its settings. */
const agentArm = z.strictObject({
  name: armName,
  agent: z.string().min(1, 'a module path, e.g. ./my-agent.ts'),
  settings: z.record(z.string(), z.unknown()).default({}),
});

const guardArm = z.strictObject({
  name: armName,
  guards: z.array(guardEntry),
});

/**
 * An entry is an agent arm when it has an `agent` key, else a guard arm: chosen before
 * parsing, so each problem is reported at its own field, not as "matches neither".
 */
const armEntry = z.unknown().transform((entry, ctx) => {
  const schema = typeof entry === 'object' && entry !== null && 'agent' in entry ? agentArm : guardArm;
  const parsed = schema.safeParse(entry);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

const armsFileSchema = z.strictObject({
  arms: z.array(armEntry).min(1),
});

/**
 * Custom arms from a YAML or JSON file. A guard is a built-in one by name, or a user's
 * guard (made with `defineGuard`) by the path of its module, relative to the file:
 *
 * ```yaml
 * arms:
 *   - name: tight-budget
 *     guards:
 *       - { guard: budget, maxToolCalls: 8, counts: executed }
 *       - { guard: repeat, window: 2 }
 *       - { guard: classify, maxRetries: 2, backoffMs: [500, 1000] }
 *       - { guard: recover, fallbackModel: null }
 *       - { guard: ./guards/no-deletes.ts, maxDeletes: 0 }
 *   - name: mine
 *     agent: ./my-agent.ts        # a defineAgent module, from this file's folder; #name picks an export
 *     settings: { maxTurns: 8 }   # parsed by the agent's own settings schema
 * ```
 */
export function loadArmsFile(path: string): Promise<Map<string, Arm>> {
  return parseArmsFile(readInputFile(path), path);
}

/**
 * The custom arms of an arms file's text; `source` names the file in error messages, and
 * guard module paths are relative to `baseDir` (the file's folder). User guard modules are
 * imported here, once per thread, and validate their own settings.
 */
export async function parseArmsFile(
  text: string,
  source: string,
  baseDir = dirname(resolve(source)),
): Promise<Map<string, Arm>> {
  let data: unknown;
  try {
    data = parseYamlInput(text);
  } catch (error) {
    throw UserInputError.single(source, '', `a readable YAML or JSON arms file (${firstLine(error)})`);
  }
  const parsed = armsFileSchema.safeParse(data);
  if (!parsed.success) {
    throw new UserInputError(
      parsed.error.issues.map((issue) => ({
        source,
        field: issue.path.map(String).join('.'),
        expected: issue.message,
      })),
    );
  }
  const problems: InputProblem[] = [];
  const arms = new Map<string, Arm>();
  for (const [i, arm] of parsed.data.arms.entries()) {
    const reserved = reservedArmName(arm.name);
    if (reserved !== undefined)
      throw UserInputError.single(
        source,
        `arms.${i}.name`,
        `a name of your own; '${arm.name}' is reserved: ${reserved}`,
      );
    if (arms.has(arm.name))
      throw UserInputError.single(source, `arms.${i}.name`, `a name used once; '${arm.name}' is used twice`);
    if ('agent' in arm) {
      const module = parseAgentSpec(arm.agent, baseDir);
      arms.set(arm.name, { name: arm.name, guards: [], agent: { kind: 'module', ...module, settings: arm.settings } });
      continue;
    }
    const guards: GuardSetting[] = [];
    for (const [j, entry] of arm.guards.entries()) {
      const field = `arms.${i}.guards.${j}`;
      if (entry.kind === 'built-in') guards.push(entry.setting);
      else {
        const setting = await userGuard(entry, { source, field, baseDir }, problems);
        if (setting !== undefined) guards.push(setting);
      }
    }
    if (new Set(guards.map((setting) => setting.guard)).size !== guards.length)
      problems.push({ source, field: `arms.${i}.guards`, expected: 'each guard at most once' });
    arms.set(arm.name, { name: arm.name, guards });
  }
  if (problems.length > 0) throw new UserInputError(problems);
  return arms;
}

/**
 * A user guard's entry: its module imported, its descriptor found, its settings read by the
 * descriptor's own schema. Problems with the settings are added to `problems`; a module
 * that cannot be imported, or exports no guard, is thrown at once.
 */
async function userGuard(
  entry: Extract<GuardEntry, { kind: 'module' }>,
  where: { readonly source: string; readonly field: string; readonly baseDir: string },
  problems: InputProblem[],
): Promise<UserGuardSetting | undefined> {
  const { source, field, baseDir } = where;
  const hash = entry.path.lastIndexOf('#');
  const name = hash === -1 ? undefined : entry.path.slice(hash + 1);
  const module = userModulePath(hash === -1 ? entry.path : entry.path.slice(0, hash), baseDir);
  const descriptor = await importUserGuard(module, name, source, `${field}.guard`);
  if (BUILT_IN_BY_NAME.has(descriptor.name)) {
    problems.push({
      source,
      field: `${field}.guard`,
      expected: `a guard named other than a built-in one; '${module}' defines '${descriptor.name}'`,
    });
    return undefined;
  }
  const settings = descriptor.settings.safeParse(entry.settings);
  if (!settings.success) {
    for (const issue of settings.error.issues)
      problems.push({ source, field: [field, ...issue.path.map(String)].join('.'), expected: issue.message });
    return undefined;
  }
  return {
    guard: descriptor.name,
    module,
    ...(name === undefined ? {} : { export: name }),
    settings: settings.data,
  };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
