import type { CassetteUse } from '../cassettes/cassette-client.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from '../arms/arms.js';

/** What a sweep runs: everything that decides its output bytes, and nothing else. */
export interface SweepDefinition {
  /** Scenario files, by id and path, in matrix order. */
  readonly scenarios: ReadonlyArray<{ readonly id: string; readonly path: string }>;
  readonly arms: readonly Arm[];
  readonly seeds: { readonly base: number; readonly count: number };
  readonly sweepSeed: number;
  /** The simulated model in-process or through the real SDK. */
  readonly model: 'simulated' | 'simulated-sdk';
  /** Every model call streamed; absent when not, so a plain sweep's identity is unchanged. */
  readonly stream?: true;
  /** Requests sent unmarked for the prompt cache (`--no-prompt-cache`); absent when marked, the default. */
  readonly promptCache?: false;
  /** Calls sent through the Message Batches API (`--batch`): half price, the cache marked for an hour; absent when not. */
  readonly batch?: true;
  /** The persona ensemble every arm runs across (its members reach workers once, at pool start); absent without one. */
  readonly ensemble?: { readonly name: string; readonly members: number; readonly hash: string };
  /** Every run's model calls recorded into, or answered from, a cassette folder; absent without one. */
  readonly cassette?: CassetteUse;
}

/** A slice of one (scenario, arm) cell: the unit of work handed to a worker. */
export interface Chunk {
  /** Position in the sweep's output order. */
  readonly index: number;
  readonly scenarioIndex: number;
  readonly armIndex: number;
  readonly seedFrom: number;
  /** Exclusive. */
  readonly seedTo: number;
}

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export function totalRuns(definition: SweepDefinition): number {
  return definition.scenarios.length * definition.arms.length * definition.seeds.count;
}

/** Runs of one (scenario, arm) cell, at most. Far past any real sweep; it keeps every count exact. */
export const MAX_SEEDS_PER_CELL = 1_000_000_000;

/**
 * Refuses seed ranges whose seeds or counts a double cannot hold exactly: past 2^53 - 1,
 * `seed + 1` rounds back to `seed` and a run loop would never end.
 */
export function checkSeeds({ base, count }: SweepDefinition['seeds']): void {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SEEDS_PER_CELL)
    throw UserInputError.single(
      '--seeds',
      '',
      `a whole number from 1 to ${MAX_SEEDS_PER_CELL} (runs per scenario and arm); got ${count}`,
    );
  if (!Number.isSafeInteger(base) || base < 0 || base + count > Number.MAX_SAFE_INTEGER)
    throw UserInputError.single(
      '--first-seed',
      '',
      `a first seed with --first-seed + --seeds at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1, so every run seed is exact); got ${base} + ${count}`,
    );
}

/** The chunks of a sweep or shard, made on demand: a plan takes memory by cells, not by runs. */
export interface SweepPlan {
  /** Runs in the plan (the shard's, for a shard). */
  readonly runs: number;
  readonly chunkCount: number;
  /** The chunk at `index` (0 <= index < chunkCount), in output order. */
  chunk(index: number): Chunk;
}

/** The part of one cell a plan covers, as run offsets inside the cell. */
interface CellSpan {
  readonly scenarioIndex: number;
  readonly armIndex: number;
  readonly from: number;
  readonly to: number;
  readonly firstChunk: number;
}

/** The shard's runs as positions `[from, to)` in the output order of a sweep of `total` runs. */
export function shardBounds(total: number, shard: Shard): readonly [number, number] {
  // In integers of any size: shard.index * total can pass 2^53 while the bounds cannot.
  const runs = BigInt(total);
  return [
    Number((BigInt(shard.index - 1) * runs) / BigInt(shard.count)),
    Number((BigInt(shard.index) * runs) / BigInt(shard.count)),
  ];
}

/**
 * The runs of a sweep (or of one shard of it) cut into chunks in output order:
 * scenario, then arm, then seed. A chunk never crosses a cell. A shard is a contiguous
 * range of that order, so shards concatenated in order are the whole sweep.
 */
export function planSweep(
  definition: SweepDefinition,
  chunkSize: number,
  shard: Shard = { index: 1, count: 1 },
): SweepPlan {
  const { count: seeds, base } = definition.seeds;
  const [from, to] = shardBounds(totalRuns(definition), shard);
  const spans: CellSpan[] = [];
  let chunkCount = 0;
  let cell = 0;
  for (let scenarioIndex = 0; scenarioIndex < definition.scenarios.length; scenarioIndex++) {
    for (let armIndex = 0; armIndex < definition.arms.length; armIndex++, cell++) {
      const cellStart = cell * seeds;
      const start = Math.max(from, cellStart) - cellStart;
      const end = Math.min(to, cellStart + seeds) - cellStart;
      if (start >= end) continue;
      spans.push({ scenarioIndex, armIndex, from: start, to: end, firstChunk: chunkCount });
      chunkCount += Math.ceil((end - start) / chunkSize);
    }
  }
  return {
    runs: to - from,
    chunkCount,
    chunk(index) {
      if (!Number.isSafeInteger(index) || index < 0 || index >= chunkCount)
        throw new RangeError(`chunk ${index} is outside the plan (${chunkCount} chunks)`);
      const span = spans[lastSpanAtOrBefore(spans, index)]!;
      const run = span.from + (index - span.firstChunk) * chunkSize;
      return {
        index,
        scenarioIndex: span.scenarioIndex,
        armIndex: span.armIndex,
        seedFrom: base + run,
        seedTo: base + Math.min(span.to, run + chunkSize),
      };
    },
  };
}

/** The last span whose first chunk is at or before `index` (spans are in chunk order). */
function lastSpanAtOrBefore(spans: readonly CellSpan[], index: number): number {
  let low = 0;
  let high = spans.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (spans[middle]!.firstChunk <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** `i/n` with whole numbers 1 <= i <= n, or undefined. */
export function parseShard(text: string): Shard | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (match === null) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return Number.isSafeInteger(count) && index >= 1 && index <= count ? { index, count } : undefined;
}
