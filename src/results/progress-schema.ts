import { z } from 'zod';
import type { StoredArm } from './summary-schema.js';
import { count, name, text, whole } from './field-schemas.js';

/** Everything that decides which runs a sweep makes and in what order. */
export interface StoredSweepIdentity {
  /** `files`: a tools module's and the files it imports, by shown path with the sha256 of each, when it imports any. */
  readonly scenarios: ReadonlyArray<{
    readonly id: string;
    readonly hash: string;
    readonly files?: Readonly<Record<string, string>> | undefined;
  }>;
  readonly arms: readonly StoredArm[];
  readonly seeds: { readonly base: number; readonly count: number };
  readonly sweep_seed: number;
  readonly model: string;
  readonly shard: { readonly index: number; readonly count: number };
  readonly chunk_size: number;
  /** The persona ensemble the sweep runs across; absent without one. */
  readonly ensemble?: { readonly name: string; readonly hash: string } | undefined;
  readonly prompt_cache?: false | undefined;
  readonly batch?: true | undefined;
}

/**
 * progress.json: how far a sweep got. Its first `chunks_done` chunks are in runs.jsonl
 * and runs.csv, which were synced to disk at exactly these sizes before this was written.
 * Anything past them is a chunk cut short by a crash, and a resume cuts it off.
 */
export interface StoredProgress {
  /** Absent before format versions were written: version 1. */
  readonly format_version?: number | undefined;
  readonly spiralbench: string;
  readonly sweep: StoredSweepIdentity;
  readonly chunks_done: number;
  readonly runs_done: number;
  readonly jsonl_bytes: number;
  readonly csv_bytes: number;
}

export const progressSchema: z.ZodType<StoredProgress> = z.object({
  format_version: whole.optional(),
  spiralbench: text,
  // Compared field by field with the resuming sweep's own identity, so kept whole.
  sweep: z.looseObject({
    scenarios: z.array(z.looseObject({ id: name, hash: text })),
    arms: z.array(z.looseObject({ name, guards: z.array(z.looseObject({ guard: name })) })),
    seeds: z.looseObject({ base: count, count }),
    sweep_seed: whole,
    model: text,
    shard: z.looseObject({ index: count, count }),
    chunk_size: count,
    ensemble: z.looseObject({ name: text, hash: text }).optional(),
    prompt_cache: z.literal(false).optional(),
    batch: z.literal(true).optional(),
  }),
  chunks_done: count,
  runs_done: count,
  jsonl_bytes: count,
  csv_bytes: count,
});
