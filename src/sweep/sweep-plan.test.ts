import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { UserInputError } from '../user-input-error.js';
import {
  checkSeeds,
  MAX_SEEDS_PER_CELL,
  parseShard,
  planSweep,
  type Chunk,
  type Shard,
  totalRuns,
  type SweepDefinition,
} from './sweep-plan.js';

const definition: SweepDefinition = {
  scenarios: [
    { id: 'a', path: 'a.yaml' },
    { id: 'b', path: 'b.yaml' },
  ],
  arms: ['none', 'article'].map((name) => ARM_PRESETS.get(name) as Arm),
  seeds: { base: 10, count: 7 },
  sweepSeed: 0,
  model: 'simulated',
};

/** Every chunk of a plan, in order. */
function planChunks(of: SweepDefinition, chunkSize: number, shard?: Shard): Chunk[] {
  const plan = planSweep(of, chunkSize, shard);
  return Array.from({ length: plan.chunkCount }, (_, i) => plan.chunk(i));
}

/** Every (scenario, arm, seed) a list of chunks covers, in order. */
function runsOf(chunks: readonly Chunk[]): string[] {
  return chunks.flatMap((chunk) =>
    Array.from(
      { length: chunk.seedTo - chunk.seedFrom },
      (_, i) => `${chunk.scenarioIndex}/${chunk.armIndex}/${chunk.seedFrom + i}`,
    ),
  );
}

describe('planSweep', () => {
  it('covers the matrix in scenario, arm, seed order, never crossing a cell', () => {
    const chunks = planChunks(definition, 3);
    expect(totalRuns(definition)).toBe(28);
    expect(chunks.map((chunk) => [chunk.scenarioIndex, chunk.armIndex, chunk.seedFrom, chunk.seedTo])).toEqual([
      [0, 0, 10, 13],
      [0, 0, 13, 16],
      [0, 0, 16, 17],
      [0, 1, 10, 13],
      [0, 1, 13, 16],
      [0, 1, 16, 17],
      [1, 0, 10, 13],
      [1, 0, 13, 16],
      [1, 0, 16, 17],
      [1, 1, 10, 13],
      [1, 1, 13, 16],
      [1, 1, 16, 17],
    ]);
    expect(chunks.map((chunk) => chunk.index)).toEqual([...chunks.keys()]);
  });

  it.each([1, 2, 3, 5, 28])('splits into %i shards that concatenate to the whole sweep', (count) => {
    const whole = runsOf(planChunks(definition, 4));
    const shards = Array.from({ length: count }, (_, i) => runsOf(planChunks(definition, 4, { index: i + 1, count })));
    expect(shards.flat()).toEqual(whole);
    const sizes = shards.map((shard) => shard.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(sizes).toEqual(
      Array.from({ length: count }, (_, i) => planSweep(definition, 4, { index: i + 1, count }).runs),
    );
  });

  it('makes chunks as they are asked for: a billion-run cell is planned at once, its last chunk exact', () => {
    const huge: SweepDefinition = { ...definition, seeds: { base: 1, count: MAX_SEEDS_PER_CELL } };
    const plan = planSweep(huge, 1);
    expect(plan.runs).toBe(4 * MAX_SEEDS_PER_CELL);
    expect(plan.chunkCount).toBe(4 * MAX_SEEDS_PER_CELL);
    expect(plan.chunk(plan.chunkCount - 1)).toEqual({
      index: plan.chunkCount - 1,
      scenarioIndex: 1,
      armIndex: 1,
      seedFrom: MAX_SEEDS_PER_CELL,
      seedTo: MAX_SEEDS_PER_CELL + 1,
    });
    expect(() => plan.chunk(plan.chunkCount)).toThrow(RangeError);
  });

  it('cuts shards exactly even where shard index × runs passes 2^53', () => {
    const huge: SweepDefinition = { ...definition, seeds: { base: 0, count: MAX_SEEDS_PER_CELL } };
    const count = 2 ** 40;
    const last = planSweep(huge, 250, { index: count, count });
    // 4e9 runs over 2^40 shards: most shards are empty, and the last one holds the last run.
    expect(last.runs).toBe(1);
    expect(last.chunk(0)).toMatchObject({ scenarioIndex: 1, armIndex: 1, seedFrom: MAX_SEEDS_PER_CELL - 1 });
    expect(planSweep(huge, 250, { index: count - 1, count }).chunkCount).toBe(0);
  });
});

describe('checkSeeds', () => {
  const problem = (seeds: SweepDefinition['seeds']) => {
    try {
      checkSeeds(seeds);
    } catch (error) {
      if (error instanceof UserInputError) return error.message;
      throw error;
    }
    return 'accepted';
  };

  it('accepts seed ranges that end at 2^53 - 1 at most', () => {
    expect(problem({ base: 1, count: 50 })).toBe('accepted');
    expect(problem({ base: Number.MAX_SAFE_INTEGER - 3, count: 3 })).toBe('accepted');
  });

  it('refuses a range past 2^53 - 1, where seeds stop being exact, and names the limit', () => {
    expect(problem({ base: Number.MAX_SAFE_INTEGER - 1, count: 3 })).toBe(
      `--first-seed: a first seed with --first-seed + --seeds at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1, so every run seed is exact); got ${Number.MAX_SAFE_INTEGER - 1} + 3`,
    );
  });

  it('refuses more than a billion runs a cell', () => {
    expect(problem({ base: 0, count: MAX_SEEDS_PER_CELL + 1 })).toBe(
      `--seeds: a whole number from 1 to 1000000000 (runs per scenario and arm); got ${MAX_SEEDS_PER_CELL + 1}`,
    );
  });
});

describe('parseShard', () => {
  it('accepts i/n with 1 <= i <= n only', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '2', 'a/b', '1/0', '-1/2', '1/9007199254740993', ' 1/2'])
      expect(parseShard(bad)).toBeUndefined();
  });
});
