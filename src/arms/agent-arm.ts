import { basename, extname } from 'node:path';
import { importUserModule, pickExport, userModulePath } from '../user-module/import-user-module.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from './arms.js';
import { type AgentDefinition, isAgentDefinition } from '../agents/define-agent.js';

/**
 * A user's agent as an arm carries it. A module is named by its absolute path (and export),
 * so a pool worker, which receives the arm structured-cloned, imports it once per thread;
 * an inline definition lives in this process only (see `runAgentSweep`).
 */
export type AgentRef =
  | {
      readonly kind: 'module';
      /** The module's absolute path. */
      readonly module: string;
      /** The export holding the definition, when it is not the default or the only one. */
      readonly export?: string;
      /** The sha256 of the module's text, in results only (recordedArms), where `module` is shown relative. */
      readonly hash?: string;
      /** The files it imports from the project by shown path, with the sha256 of each, in results only (recordedArms). */
      readonly imports?: Readonly<Record<string, string>>;
      /** The arm's settings as given (an arms file); the agent's schema parses them at each run. */
      readonly settings: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'inline';
      /** Its key in this process's inline definitions. */
      readonly id: string;
      readonly settings: Readonly<Record<string, unknown>>;
    };

/** Where the user named the module, for the one message a bad one gets. */
export interface AgentSourceName {
  /** The flag or file, e.g. `--agent` or `arms.yaml`. */
  readonly source: string;
  /** The field within a file, e.g. `arms[2].agent`. */
  readonly field?: string;
}

const inline = new Map<string, AgentDefinition>();
const inlineIds = new WeakMap<AgentDefinition, string>();

/**
 * A definition made in this process, kept so that arms can name it (one id per
 * definition, however many sweeps run it); inline arms run in this thread only.
 */
export function inlineAgent(definition: AgentDefinition, settings: Readonly<Record<string, unknown>> = {}): AgentRef {
  let id = inlineIds.get(definition);
  if (id === undefined) {
    id = `inline-${inline.size + 1}`;
    inline.set(id, definition);
    inlineIds.set(definition, id);
  }
  return { kind: 'inline', id, settings };
}

/**
 * `path[#export]` as `--agent` takes it, resolved against `baseDir`.
 *
 * @example
 * parseAgentSpec('./agents.ts#careful', '/home/me') // { module: '/home/me/agents.ts', export: 'careful' }
 */
export function parseAgentSpec(spec: string, baseDir: string): { readonly module: string; readonly export?: string } {
  const hash = spec.lastIndexOf('#');
  const path = hash === -1 ? spec : spec.slice(0, hash);
  const name = hash === -1 ? '' : spec.slice(hash + 1);
  return { module: userModulePath(path, baseDir), ...(name === '' ? {} : { export: name }) };
}

/** The agent an arm names: imported once per thread for a module, checked by shape, with a message naming `where` if it is not one. */
export async function agentOf(ref: AgentRef, where: AgentSourceName = { source: '--agent' }): Promise<AgentDefinition> {
  if (ref.kind === 'inline') {
    const found = inline.get(ref.id);
    if (found === undefined)
      throw new Error(`inline agent '${ref.id}' is not in this thread (inline agents run with one worker)`);
    return found;
  }
  const module = await importUserModule(ref.module, where.source, where.field);
  return pickExport(module, isAgentDefinition, 'an agent made with defineAgent', {
    source: where.source,
    ...(where.field === undefined ? {} : { field: where.field }),
    path: ref.module,
    ...(ref.export === undefined ? {} : { name: ref.export }),
  });
}

/** The arm name of an agent: `agent:<its name>`, or the module file's name when the definition has none. */
export function agentArmName(definition: AgentDefinition, ref: AgentRef): string {
  if (definition.name !== undefined) return `agent:${definition.name}`;
  return ref.kind === 'module' ? `agent:${basename(ref.module, extname(ref.module))}` : `agent:${ref.id}`;
}

/** The settings, checked against the agent's schema before anything runs: one message naming the field that is wrong. */
export function checkAgentSettings(definition: AgentDefinition, ref: AgentRef, where: AgentSourceName): void {
  const parsed = definition.settings.safeParse(ref.settings);
  if (parsed.success) return;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.join('.');
  throw UserInputError.single(
    where.source,
    `${where.field === undefined ? 'settings' : `${where.field.replace(/\.agent$/, '')}.settings`}${path === '' ? '' : `.${path}`}`,
    issue.message,
  );
}

/** `--agent`'s spelling of a module arm, for a replay command: the absolute path, then `#export` if named. */
export function agentSpec(ref: Extract<AgentRef, { kind: 'module' }>): string {
  return ref.export === undefined ? ref.module : `${ref.module}#${ref.export}`;
}

/** One arm per agent module named by `--agent` (paths from `baseDir`), each named `agent:<name>`, checked before anything runs. */
export async function agentArms(
  specs: readonly string[],
  baseDir: string,
  source = '--agent',
): Promise<Map<string, Arm & { readonly agent: AgentRef }>> {
  const arms = new Map<string, Arm & { readonly agent: AgentRef }>();
  for (const spec of specs) {
    const ref: AgentRef = { kind: 'module', ...parseAgentSpec(spec, baseDir), settings: {} };
    const definition = await agentOf(ref, { source });
    checkAgentSettings(definition, ref, { source });
    const name = agentArmName(definition, ref);
    const taken = arms.get(name);
    if (taken !== undefined && agentSpec(taken.agent as typeof ref) !== agentSpec(ref))
      throw UserInputError.single(
        source,
        '',
        `agents with different names; '${spec}' and '${agentSpec(taken.agent as typeof ref)}' are both ${name} (give one a name in defineAgent({ name }))`,
      );
    arms.set(name, { name, guards: [], agent: ref });
  }
  return arms;
}

/** Every user agent arm's module imported and its settings checked, before a sweep starts; `source` names where each came from. */
export async function checkAgentArms(
  arms: readonly Arm[],
  sourceOf: (arm: Arm) => AgentSourceName,
): Promise<Map<string, AgentDefinition>> {
  const agents = new Map<string, AgentDefinition>();
  for (const arm of arms) {
    if (arm.agent === undefined) continue;
    const where = sourceOf(arm);
    const definition = await agentOf(arm.agent, where);
    checkAgentSettings(definition, arm.agent, where);
    agents.set(arm.name, definition);
  }
  return agents;
}
