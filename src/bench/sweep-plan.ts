import type { Arm } from './arms.js';

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

/**
 * The runs of a sweep (or of one shard of it) cut into chunks in output order:
 * scenario, then arm, then seed. A shard is a contiguous range of that order, so shards
 * concatenated in order are the whole sweep.
 */
export function planChunks(
  definition: SweepDefinition,
  chunkSize: number,
  shard: Shard = { index: 1, count: 1 },
): Chunk[] {
  const { count: seeds, base } = definition.seeds;
  const total = totalRuns(definition);
  const from = Math.floor(((shard.index - 1) * total) / shard.count);
  const to = Math.floor((shard.index * total) / shard.count);
  const chunks: Chunk[] = [];
  let cell = 0;
  for (let scenarioIndex = 0; scenarioIndex < definition.scenarios.length; scenarioIndex++) {
    for (let armIndex = 0; armIndex < definition.arms.length; armIndex++, cell++) {
      const cellStart = cell * seeds;
      const start = Math.max(from, cellStart);
      const end = Math.min(to, cellStart + seeds);
      for (let run = start; run < end; run += chunkSize) {
        chunks.push({
          index: chunks.length,
          scenarioIndex,
          armIndex,
          seedFrom: base + (run - cellStart),
          seedTo: base + (Math.min(end, run + chunkSize) - cellStart),
        });
      }
    }
  }
  return chunks;
}

export function parseShard(text: string): Shard | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (match === null) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return index >= 1 && index <= count ? { index, count } : undefined;
}
