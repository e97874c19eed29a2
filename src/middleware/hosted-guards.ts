import type { z } from 'zod';
import type { GuardDescriptor, GuardRun, TaskClass } from '../loop/define-guard.js';
import type { Guard } from '../loop/guard.js';
import { GUARD_REGISTRY, type HostedGuardEntry } from '../loop/guards/index.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import type { StreamKey } from '../random/streams.js';

/**
 * The built-in guards a framework's extension points can host, by the option that turns
 * each on (the guard's code name), in our own loop's consultation order.
 */
export const HOSTED_GUARDS = Object.fromEntries(
  GUARD_REGISTRY.flatMap((entry) => ('unhosted' in entry ? [] : [[entry.code, entry.descriptor]])),
) as { readonly [E in HostedGuardEntry as E['code']]: E['descriptor'] };

export type HostedGuardOption = keyof typeof HOSTED_GUARDS;

/**
 * Which safeguards to turn on, each with its settings (`{}` or `true` for the defaults);
 * the settings are the guard's own, as an arms file writes them.
 *
 * @example
 * const choice: GuardChoice = { toolBudget: { maxToolCalls: 10 }, repeatFingerprint: true, errorClassification: {} };
 */
export type GuardChoice = {
  readonly [K in HostedGuardOption]?: true | Partial<z.input<(typeof HOSTED_GUARDS)[K]['settings']>>;
};

/**
 * Built-in guards of our `all` preset that no framework extension point can host, by arm
 * name, and why. A session refuses them by name.
 */
export const UNHOSTED_GUARDS: Readonly<Record<string, string>> = Object.fromEntries(
  GUARD_REGISTRY.flatMap((entry) => ('unhosted' in entry ? [[entry.descriptor.name, entry.unhosted]] : [])),
);

/** The presets a session takes by name: the article's four safeguards, and every guard a framework can host. */
export const SESSION_PRESETS: Readonly<Record<'article' | 'all', readonly HostedGuardOption[]>> = {
  article: ['stuckTool', 'toolBudget', 'repeatFingerprint', 'errorClassification'],
  all: Object.keys(HOSTED_GUARDS) as HostedGuardOption[],
};

export type SessionPreset = keyof typeof SESSION_PRESETS;

/** What the guards may know of the run: its task class (budgets by class), model and streams. */
export interface HostedRun {
  /** @default 'standard' */
  readonly taskClass?: TaskClass;
  /** Tool calls the task's class allows (a `'task-class'` budget). @default 15 */
  readonly toolBudget?: number;
  /** @default DEFAULT_MODEL_ID */
  readonly modelId?: string;
  /** Names the run's seeded streams (recovery's jitter). @default the clock's (`wallClock()`: one per session), else a fixed key */
  readonly streamKey?: StreamKey;
  /** The journal the run journal guard keeps, asked for only when that guard is on. @default a fresh one */
  readonly journal?: () => RunJournal;
  /** Who started the session (session trust reads it). @default 'user' */
  readonly trigger?: 'user' | 'untrusted';
}

const DEFAULT_KEY: StreamKey = Object.freeze({ sweepSeed: 0, scenario: 'middleware', runSeed: 0 });

/**
 * Fresh guards for one run, from a preset name, a choice of options, or guards already
 * built; in consultation order either way. A guard no framework can host is refused.
 */
export function buildHostedGuards(
  choice: SessionPreset | GuardChoice | readonly Guard[],
  run: HostedRun = {},
): Guard[] {
  if (Array.isArray(choice)) {
    for (const guard of choice as readonly Guard[]) refuseUnhosted(guard);
    return [...(choice as readonly Guard[])];
  }
  const picked: GuardChoice =
    typeof choice === 'string'
      ? Object.fromEntries(presetOptions(choice).map((name) => [name, true]))
      : (choice as GuardChoice);
  const unknown = Object.keys(picked).filter((key) => !(key in HOSTED_GUARDS));
  if (unknown.length > 0)
    throw new TypeError(
      `unknown safeguard option '${unknown.join("', '")}': one of ${Object.keys(HOSTED_GUARDS).join(', ')}`,
    );
  const names = (Object.keys(HOSTED_GUARDS) as HostedGuardOption[]).filter((name) => picked[name] !== undefined);
  const descriptors = names.map((name) => HOSTED_GUARDS[name] as GuardDescriptor);
  const guardRun: GuardRun = {
    taskClass: run.taskClass ?? 'standard',
    toolBudget: run.toolBudget ?? 15,
    contextWindow: Number.POSITIVE_INFINITY,
    modelId: run.modelId ?? DEFAULT_MODEL_ID,
    streamKey: run.streamKey ?? DEFAULT_KEY,
    journal: picked.runJournal !== undefined && run.journal !== undefined ? run.journal() : new RunJournal(),
    has: (name) => descriptors.some((descriptor) => descriptor.name === name),
    trigger: run.trigger ?? 'user',
  };
  return names.map((name, i) => {
    const given = picked[name];
    const descriptor = descriptors[i]!;
    return descriptor.build(descriptor.settings.parse(given === true ? {} : given), guardRun);
  });
}

function presetOptions(name: string): readonly HostedGuardOption[] {
  const preset = SESSION_PRESETS[name as SessionPreset];
  if (preset === undefined) throw new TypeError(`unknown safeguard preset '${name}': one of article, all`);
  return preset;
}

/** A guard the middleware cannot host, or one using a hook it has no place for, is an error, not a silent no-op. */
function refuseUnhosted(guard: Guard): void {
  const why = UNHOSTED_GUARDS[guard.name];
  if (why !== undefined) throw new TypeError(`the '${guard.name}' guard cannot run as middleware: ${why}`);
  const hook = (['afterModelReply', 'parseArguments'] as const).find((name) => guard[name] !== undefined);
  if (hook !== undefined)
    throw new TypeError(`the '${guard.name}' guard uses ${hook}, which no framework extension point hosts`);
}
