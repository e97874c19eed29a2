import { join } from 'node:path';
import type { StoredProgress } from '../results/progress-schema.js';
import { PROGRESS_FILE } from '../results/results-files.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from '../arms/arms.js';
import { changedModules, changedToolsModuleFiles } from '../arms/recorded-arms.js';
import type { Shard } from './sweep-plan.js';

/** Everything that decides which runs a sweep makes and in what order (progress.json keeps it). */
export interface SweepIdentity {
  /** `files`: a tools module's own and the files it imports, when it imports any (toolsModuleFiles). */
  readonly scenarios: ReadonlyArray<{
    readonly id: string;
    readonly hash: string;
    readonly files?: Readonly<Record<string, string>>;
  }>;
  readonly arms: readonly Arm[];
  readonly seeds: { readonly base: number; readonly count: number };
  readonly sweep_seed: number;
  readonly model: string;
  readonly shard: Shard;
  readonly chunk_size: number;
  /** The persona ensemble, by name and the hash of its bytes; absent without one. */
  readonly ensemble?: { readonly name: string; readonly hash: string };
  /** Requests sent without prompt-cache marks (`--no-prompt-cache`); absent when marked, the default. */
  readonly prompt_cache?: false;
  /** Calls sent through the Message Batches API (`--batch`); absent when not. */
  readonly batch?: true;
}

// Exhaustive over SweepIdentity: a new field fails the type check here until it is compared.
const IDENTITY_FIELDS: ReadonlySet<string> = new Set(
  Object.keys({
    scenarios: true,
    arms: true,
    seeds: true,
    sweep_seed: true,
    model: true,
    shard: true,
    chunk_size: true,
    ensemble: true,
    prompt_cache: true,
    batch: true,
  } satisfies Record<keyof SweepIdentity, true>),
);

/**
 * Refuses to resume a different sweep into the same folder: the runs already there would
 * be mixed with runs of another definition. Names every field that differs.
 */
export function checkSameSweep(progress: StoredProgress, identity: SweepIdentity, dir: string): void {
  const path = join(dir, PROGRESS_FILE);
  // Both sides' fields: a field only one of them has (an ensemble) is a difference too.
  const fields = [...new Set([...Object.keys(progress.sweep), ...Object.keys(identity)])].filter(
    (field): field is keyof SweepIdentity => IDENTITY_FIELDS.has(field),
  );
  const differing = fields.filter((field) => JSON.stringify(progress.sweep[field]) !== JSON.stringify(identity[field]));
  if (differing.length === 0) return;
  const changed = changedModules(progress.sweep.arms, identity.arms);
  const changedTools = changedToolsModuleFiles(progress.sweep.scenarios, identity.scenarios);
  const restore =
    "Its runs would be mixed with the new module's: restore the module, or start a new sweep (another --out, or --overwrite)";
  throw new UserInputError(
    differing.map((field) => ({
      source: path,
      field: `sweep.${field}`,
      expected:
        field === 'arms' && changed.length > 0
          ? `the agent and guard modules the interrupted sweep ran, unchanged; changed since: ${changed.join('; ')}. ${restore}`
          : field === 'scenarios' && changedTools.length > 0
            ? `the scenarios' tools modules and the files they import, unchanged; changed since: ${changedTools.join('; ')}. ${restore}`
            : `the interrupted sweep's ${field} (${shownIdentityField(field, progress.sweep[field])}), got ${shownIdentityField(field, identity[field])}: resume with the same flags and scenario files`,
    })),
  );
}

/** A field of a sweep's identity in few words: scenarios and arms by name, with a note when only their content differs. */
export function shownIdentityField(field: keyof SweepIdentity, value: unknown): string {
  if (field === 'scenarios' && Array.isArray(value))
    return value
      .map((scenario: { id: string; hash: string }) => `${scenario.id}@${scenario.hash.slice(0, 8)}`)
      .join(', ');
  if (field === 'arms' && Array.isArray(value))
    return value
      .map((arm: { name: string; guards: { guard: string }[]; agent?: { module?: string; id?: string } }) =>
        arm.agent === undefined
          ? `${arm.name}[${arm.guards.map((guard) => guard.guard).join('+')}]`
          : `${arm.name}(${arm.agent.module ?? arm.agent.id})`,
      )
      .join(', ');
  if (value === undefined) return 'none';
  return JSON.stringify(value);
}
