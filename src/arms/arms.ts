import type { z } from 'zod';
import type { GuardDescriptor, GuardRun } from '../loop/define-guard.js';
import type { Guard } from '../loop/guard.js';
import { contextCompactionGuard } from '../loop/guards/context-compaction.js';
import { GUARD_REGISTRY, type GuardEntry } from '../loop/guards/index.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { contextWindowOf } from '../model/model-table.js';
import type { StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import { didYouMean } from '../did-you-mean.js';
import { UserInputError } from '../user-input-error.js';
import { installCommand, missingPackages, peerByArm, PEERS } from '../peers/peer-registry.js';
import type { PeerSetting } from '../peers/peer-setting.js';
import { isUserGuardSetting, type UserGuardSetting, userGuardDescriptor } from './user-guards.js';
import { shieldedUserGuard } from './user-guard-shield.js';
import type { AgentRef } from './agent-arm.js';

/** Every built-in guard's descriptor, in consultation order (the registry says why that order). */
export const BUILT_IN_GUARDS: readonly BuiltInGuard[] = GUARD_REGISTRY.map((entry) => entry.descriptor);

type BuiltInGuard = GuardEntry['descriptor'];

/** A guard's settings as an arm carries them and results show them: its name first, then its settings in schema order. */
type SettingOf<D> =
  D extends GuardDescriptor<infer Name, infer Settings>
    ? { readonly guard: Name } & Readonly<z.output<Settings>>
    : never;

/** One built-in safeguard's settings, as written into results. */
export type BuiltInGuardSetting = SettingOf<BuiltInGuard>;

/** One safeguard's settings, as written into results: a built-in guard's, or a user guard's from its module. */
export type GuardSetting = BuiltInGuardSetting | UserGuardSetting;

export type GuardName = BuiltInGuard['name'];

/** Built-in guards by name. */
export const BUILT_IN_BY_NAME: ReadonlyMap<string, BuiltInGuard> = new Map(
  BUILT_IN_GUARDS.map((descriptor) => [descriptor.name, descriptor]),
);

/**
 * A built-in guard's entry in an arm, from settings its own schema produced (its defaults
 * when none are given).
 */
export function settingOf<D extends BuiltInGuard>(descriptor: D, settings?: z.output<D['settings']>): SettingOf<D> {
  // The one place a name meets its settings: TypeScript does not correlate a union's name
  // with its settings, and both come from the same descriptor here.
  return { guard: descriptor.name, ...(settings ?? descriptor.defaults) } as SettingOf<D>;
}

/** A benchmark arm: a name and the safeguards it turns on, in the order they are consulted. */
export interface Arm {
  readonly name: string;
  readonly guards: readonly GuardSetting[];
  /** Set on `peer:<name>` arms: the run goes through that framework's loop instead of ours (guards stay empty). */
  readonly peer?: PeerSetting;
  /** Set on a user's agent arm (`--agent`, or `agent:` in an arms file): the run goes through that agent (guards stay empty). */
  readonly agent?: AgentRef;
}

/** Every built-in guard with its default settings, in consultation order. */
export const DEFAULT_GUARDS: readonly BuiltInGuardSetting[] = BUILT_IN_GUARDS.map((descriptor) =>
  settingOf<BuiltInGuard>(descriptor),
);

/** The four core safeguards of the article. */
const ARTICLE: readonly GuardName[] = ['stuck', 'budget', 'repeat', 'classify'];

function armOf(name: string, guards: readonly GuardName[]): Arm {
  return { name, guards: DEFAULT_GUARDS.filter((setting) => guards.includes(setting.guard)) };
}

const ALL_GUARDS = DEFAULT_GUARDS.map((setting) => setting.guard);

export const ARM_PRESETS: ReadonlyMap<string, Arm> = new Map(
  [
    armOf('none', []),
    ...ALL_GUARDS.map((guard) => armOf(guard, [guard])),
    armOf('article', ARTICLE),
    // Everything built so far; grows as guards land (article stays the four core ones).
    armOf('all', ALL_GUARDS),
    // Compaction without pinning: what the pinned results buy.
    { name: 'compact-nopin', guards: [{ ...settingOf(contextCompactionGuard), pin: false }] },
  ].map((arm) => [arm.name, arm]),
);

/** Preset groups that expand to several arms. */
export const ARM_GROUPS: ReadonlyMap<string, () => Arm[]> = new Map([
  [
    'ablation',
    () => [
      ARM_PRESETS.get('none')!,
      ...ALL_GUARDS.map((guard) => ARM_PRESETS.get(guard)!),
      ...ALL_GUARDS.map((left) =>
        armOf(
          `all-no-${left}`,
          ALL_GUARDS.filter((guard) => guard !== left),
        ),
      ),
      ARM_PRESETS.get('all')!,
    ],
  ],
]);

/** The prefix of every peer framework's arm, today's and those added later. */
const PEER_PREFIX = 'peer:';

/**
 * Why a custom arm (from an arms file) cannot take `name`, or undefined when it can. Each
 * reserved name already means something in --arms, and a custom arm of that name would be
 * shadowed or would shadow it without a word.
 */
export function reservedArmName(name: string): string | undefined {
  if (name.startsWith(PEER_PREFIX)) return `${PEER_PREFIX} starts the arms of peer frameworks`;
  if (ARM_PRESETS.has(name)) return 'a preset arm';
  if (ARM_GROUPS.has(name)) return 'a group of arms';
  for (const [group, expand] of ARM_GROUPS)
    if (expand().some((arm) => arm.name === name)) return `an arm of the ${group} group`;
  return undefined;
}

/**
 * Arms by name: presets, preset groups (`ablation`) and arms from a config file, in the
 * order given, without duplicates.
 */
export function resolveArms(
  names: readonly string[],
  source = '--arms',
  custom: ReadonlyMap<string, Arm> = new Map(),
  installed?: (name: string) => boolean,
): Arm[] {
  if (names.length === 0) throw UserInputError.single(source, '', 'at least one arm');
  const arms: Arm[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const peer = peerByArm(name);
    if (peer !== undefined) {
      if (missingPackages(peer, installed).length > 0) {
        throw UserInputError.single(
          source,
          '',
          `arm '${name}' needs ${missingPackages(peer, installed).join(', ')}, which is not installed; add it with: ${installCommand(peer, installed)}`,
        );
      }
      if (!arms.some((known) => known.name === name)) arms.push(peerArm(name));
      continue;
    }
    const group = ARM_GROUPS.get(name);
    const found = group?.() ?? [custom.get(name) ?? ARM_PRESETS.get(name)].filter((arm) => arm !== undefined);
    if (found.length === 0) unknown.push(name);
    for (const arm of found) if (!arms.some((known) => known.name === arm.name)) arms.push(arm);
  }
  if (unknown.length > 0) {
    const known = [...custom.keys(), ...ARM_PRESETS.keys(), ...ARM_GROUPS.keys(), ...PEERS.map((entry) => entry.arm)];
    // An agent arm is named by its module, which the command was not given.
    const agentHint = unknown.some((name) => name.startsWith('agent:'))
      ? ' (an agent: arm needs its module: add --agent <path>, or the arms file that names it)'
      : '';
    throw UserInputError.single(
      source,
      '',
      `arm names from ${known.join(', ')}; unknown: ${unknown.map((name) => `${name}${didYouMean(name, known)}`).join(', ')}${agentHint}`,
    );
  }
  return arms;
}

/** The arm of a peer framework with its default settings (see src/peers/peer-registry.ts). */
export function peerArm(name: string): Arm & { readonly peer: PeerSetting } {
  const entry = peerByArm(name);
  if (entry === undefined) throw new RangeError(`no peer '${name}'`);
  return { name: entry.arm, guards: [], peer: entry.defaults };
}

/**
 * Fresh guard instances for one run (guards keep per-run state); `key` names the run's
 * streams; `modelId` is the model asked for, whose context window applies unless the
 * scenario sets a smaller one; `journal` is the run's journal, kept by the journal guard
 * and shown by compaction after every summary. A user guard's module must have been
 * imported in this thread (importArmGuards).
 */
export function buildGuards(
  arm: Arm,
  scenario: Scenario,
  key: StreamKey,
  modelId = DEFAULT_MODEL_ID,
  journal: RunJournal = new RunJournal(),
): Guard[] {
  const run: GuardRun = {
    taskClass: scenario.budgetClass,
    toolBudget: scenario.toolBudget,
    contextWindow: scenario.contextWindow ?? contextWindowOf(modelId),
    modelId,
    streamKey: key,
    journal,
    has: (name) => arm.guards.some((setting) => setting.guard === name),
    trigger: scenario.trigger,
  };
  return arm.guards.map((setting) => {
    if (isUserGuardSetting(setting)) return shieldedUserGuard(userGuardDescriptor(setting), setting.settings, run);
    const { guard, ...settings } = setting;
    const descriptor: GuardDescriptor | undefined = BUILT_IN_BY_NAME.get(guard);
    if (descriptor === undefined) throw new RangeError(`no built-in guard '${guard}'`);
    return descriptor.build(settings, run);
  });
}
