import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from './arms.js';
import { parseShard, planChunks, totalRuns, type SweepDefinition } from './sweep-plan.js';

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

/** Every (scenario, arm, seed) a list of chunks covers, in order. */
function runsOf(chunks: ReturnType<typeof planChunks>): string[] {
  return chunks.flatMap((chunk) =>
    Array.from(
      { length: chunk.seedTo - chunk.seedFrom },
      (_, i) => `${chunk.scenarioIndex}/${chunk.armIndex}/${chunk.seedFrom + i}`,
    ),
  );
}

describe('planChunks', () => {
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
  });
});

describe('parseShard', () => {
  it('accepts i/n with 1 <= i <= n only', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '2', 'a/b', '1/0', '-1/2']) expect(parseShard(bad)).toBeUndefined();
  });
});
