import type { z } from 'zod';
import type { StreamKey } from '../random/streams.js';
import type { AgentEventType } from './events.js';
import type { Guard } from './guard.js';
import type { RunJournal } from './journal/run-journal.js';

/** How much a task is expected to take: the scenario's budget class. */
export type TaskClass = 'lookup' | 'standard' | 'research';

/**
 * What a guard may know of the run it is built for, and nothing of how the harness found
 * it out: a guard built from this works the same under the bench, a replay or a user's
 * own agent.
 *
 * @example
 * defineGuard({
 *   name: 'half-budget',
 *   settings: z.object({}),
 *   build: (_settings, run: GuardRun) => {
 *     const limit = Math.ceil(run.toolBudget / 2); // half of what the task's class allows
 *     let calls = 0;
 *     return { name: 'half-budget', beforeToolCall: () => (++calls > limit ? { kind: 'answer', content: 'Out of calls.', isError: true } : undefined) };
 *   },
 * });
 */
export interface GuardRun {
  readonly taskClass: TaskClass;
  /** Tool calls the task's class allows (what a `'task-class'` tool budget resolves to). */
  readonly toolBudget: number;
  /** Input tokens one request may hold: the model's window, or the scenario's smaller one. */
  readonly contextWindow: number;
  /** The model the run asks for. */
  readonly modelId: string;
  /** Names the run's seeded streams: a guard that draws numbers draws them from `stream(streamKey, ...)`. */
  readonly streamKey: StreamKey;
  /** The run's journal, one per run, shared by every guard of the arm. */
  readonly journal: RunJournal;
  /**
   * Who started the session: its user, or an untrusted source such as an inbound email (a
   * scenario's `trigger:`). @default 'user'
   */
  readonly trigger?: 'user' | 'untrusted';
  /** Whether the arm also has the guard named `name`. */
  has(name: string): boolean;
}

/** The settings a guard is built with: a zod object whose every field has a default. */
export type GuardSettingsSchema = z.ZodObject;

/** What `defineGuard` is given. */
export interface GuardDefinition<Name extends string, Settings extends GuardSettingsSchema> {
  /** The name arms files and results know it by, and its `Guard.name`. */
  readonly name: Name;
  /**
   * Its settings, each with a default, so naming the guard alone configures it. Read
   * strictly: an unknown key in an arms file is an error, not a setting silently ignored.
   */
  readonly settings: Settings;
  /** The event types it emits, for docs and introspection. @default [] */
  readonly events?: readonly AgentEventType[];
  /** A fresh guard for one run (guards keep per-run state). */
  build(settings: z.output<Settings>, run: GuardRun): Guard;
}

/**
 * A guard as the harness knows it: built per run from settings an arm carries. Frozen, and
 * recognised by its `kind` rather than by class or symbol, since a user's module may load
 * its own copy of spiralbench.
 *
 * @example
 * const cap: GuardDescriptor = searchCap; // what defineGuard returned
 * cap.defaults; // { maxSearches: 1, tools: ['search_users'] }
 * const guard = cap.build({ ...cap.defaults, maxSearches: 0 }, run); // one run's Guard
 */
export interface GuardDescriptor<
  Name extends string = string,
  Settings extends GuardSettingsSchema = GuardSettingsSchema,
> extends Required<GuardDefinition<Name, Settings>> {
  readonly kind: 'spiralbench.guard';
  /** The settings of the guard named alone, in schema order. */
  readonly defaults: Readonly<z.output<Settings>>;
}

/** Keys an arm's entry already uses for itself, so no guard may name a setting so. */
const RESERVED_SETTINGS = ['guard', 'module', 'export'];

/**
 * Defines a guard: its name, its settings with their defaults, the events it emits and how
 * to build it for a run. Built-in guards are defined this way; a user's guard is used in
 * an arms file by module path (`- { guard: ./guards/no-deletes.ts, maxDeletes: 0 }`).
 *
 * @example
 * export default defineGuard({
 *   name: 'no-deletes',
 *   settings: z.strictObject({ maxDeletes: z.number().int().min(0).default(0) }),
 *   events: [],
 *   build: ({ maxDeletes }) => {
 *     let deletes = 0;
 *     return {
 *       name: 'no-deletes',
 *       beforeToolCall: (call) =>
 *         call.name.startsWith('delete_') && ++deletes > maxDeletes
 *           ? { kind: 'answer', content: 'Deleting is not allowed here.', isError: true }
 *           : undefined,
 *     };
 *   },
 * });
 */
export function defineGuard<const Name extends string, Settings extends GuardSettingsSchema>(
  definition: GuardDefinition<Name, Settings>,
): GuardDescriptor<Name, Settings> {
  const { name, settings, events = [], build } = definition;
  if (!/^[a-z][a-z0-9-]*$/.test(name))
    throw new TypeError(`defineGuard: name '${name}' is not lower-case letters, digits and -`);
  const reserved = Object.keys(settings.shape).filter((key) => RESERVED_SETTINGS.includes(key));
  if (reserved.length > 0)
    throw new TypeError(`defineGuard('${name}'): '${reserved.join("', '")}' names the entry itself, not a setting`);
  const defaults = settings.safeParse({});
  if (!defaults.success)
    throw new TypeError(
      `defineGuard('${name}'): every setting needs a default (${defaults.error.issues.map((issue) => issue.path.join('.')).join(', ')})`,
    );
  return Object.freeze({
    kind: 'spiralbench.guard',
    name,
    // Strict whatever the author wrote: a misspelt setting in an arms file is an error, never ignored.
    // `strict()` keeps the shape and checks, so the schema is still the author's type.
    settings: settings.strict() as Settings,
    events: Object.freeze([...events]),
    defaults: Object.freeze(defaults.data),
    build,
  });
}

/** Whether `value` is a guard descriptor, from this copy of spiralbench or another. */
export function isGuardDescriptor(value: unknown): value is GuardDescriptor {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof GuardDescriptor, unknown>>;
  return (
    candidate.kind === 'spiralbench.guard' &&
    typeof candidate.name === 'string' &&
    typeof candidate.build === 'function' &&
    typeof candidate.settings === 'object' &&
    candidate.settings !== null
  );
}
