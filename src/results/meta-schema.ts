import { z } from 'zod';
import { liveLabelSchema, type StoredLiveLabel } from './summary-schema.js';
import { amount, count, text, whole } from './field-schemas.js';

/**
 * meta.json: where and when a sweep ran, and the format of its folder. Kept apart from
 * the results files, which are the same bytes on every machine; a report reads the
 * sweep's date from here.
 */
export interface StoredMeta {
  /** The folder's results format (see format-version.ts); absent in folders written before it was: version 1. */
  readonly format_version?: number | undefined;
  readonly spiralbench: string;
  readonly node: string;
  readonly git_commit: string | null;
  readonly started_at: string;
  readonly finished_at: string;
  readonly wall_seconds: number;
  readonly workers: number;
  /** Model calls were streamed (`spiralbench run --stream`); absent where the command has no such flag (merge). */
  readonly stream?: boolean | undefined;
  readonly command: string;
  /** Live sweeps only: how they ran (real sockets, scaled real time). */
  readonly live?: StoredLiveLabel | undefined;
}

export const metaSchema: z.ZodType<StoredMeta> = z.looseObject({
  format_version: whole.optional(),
  spiralbench: text,
  node: text,
  git_commit: text.nullable(),
  started_at: text,
  finished_at: text,
  wall_seconds: amount,
  workers: count,
  stream: z.boolean().optional(),
  command: text,
  live: liveLabelSchema.optional(),
});
