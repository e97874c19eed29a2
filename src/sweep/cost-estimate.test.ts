import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenarios/loader.js';
import { resolveArms } from '../arms/arms.js';
import { estimateSweepCost } from './cost-estimate.js';
import { runOne } from '../arms/run-one.js';

const scenario = loadScenario('fetch-transform-write');
const arms = resolveArms(['none', 'article'], '--arms');

describe('estimateSweepCost', () => {
  it("prices the simulated sweep's own runs at the named model's list prices", async () => {
    // Without the prompt cache, whose minimum prefix differs between the two models.
    const uncached = { scenarios: [scenario], arms, seeds: 5, promptCache: false } as const;
    const sonnet = await estimateSweepCost({ ...uncached, modelId: 'claude-sonnet-4-5' });
    const haiku = await estimateSweepCost({ ...uncached, modelId: 'claude-haiku-4-5' });
    // Same runs (same context window), a third of the price: Haiku 4.5 is $1/$5 where Sonnet is $3/$15.
    expect(haiku.meanInputTokens).toBe(sonnet.meanInputTokens);
    expect(haiku.totalUsd! * 3).toBeCloseTo(sonnet.totalUsd!, 9);
    // The tokens are those of the simulated sweep the user would run without --model.
    let input = 0;
    let output = 0;
    for (const arm of arms) {
      for (let seed = 1; seed <= 5; seed++) {
        const { record } = await runOne({ sweepSeed: 0, scenario, arm, seed, promptCache: false });
        input += record.input_tokens;
        output += record.output_tokens;
      }
    }
    expect(sonnet).toMatchObject({
      totalRuns: 10,
      sampledRuns: 10,
      meanInputTokens: input / 10,
      meanOutputTokens: output / 10,
    });
    expect(sonnet.totalUsd).toBeCloseTo((input * 3 + output * 15) / 1e6, 4);
    expect(sonnet.maxRunUsd).toBeGreaterThan(sonnet.totalUsd! / 10);
    expect(sonnet.cells.map((cell) => cell.arm)).toEqual(['none', 'article']);
    expect(sonnet.cells.reduce((sum, cell) => sum + cell.usd!, 0)).toBeCloseTo(sonnet.totalUsd!, 9);
  });

  it('prices the prompt cache as the sweep will use it, and gives an interval around the total', async () => {
    const options = { scenarios: [scenario], arms, seeds: 40, modelId: 'claude-sonnet-4-5' } as const;
    const cached = await estimateSweepCost(options);
    const uncached = await estimateSweepCost({ ...options, promptCache: false });
    expect(cached.meanInputTokens).toBe(uncached.meanInputTokens);
    expect(cached.totalUsd!).toBeLessThan(uncached.totalUsd! * 0.7);
    // Half price, with the cache marked for an hour (its writes at 2× rather than 1.25×).
    const batched = await estimateSweepCost({ ...options, batch: true });
    expect(batched.totalUsd!).toBeGreaterThan(cached.totalUsd! / 2);
    expect(batched.totalUsd!).toBeLessThan(cached.totalUsd! * 0.7);
    const [low, high] = cached.intervalUsd!;
    expect(low).toBeLessThan(cached.totalUsd!);
    expect(high).toBeGreaterThan(cached.totalUsd!);
  });

  it("scales a sample of each cell's first seeds to the whole cell", async () => {
    const sample = await estimateSweepCost({ scenarios: [scenario], arms, seeds: 3, modelId: 'claude-sonnet-4-5' });
    const scaled = await estimateSweepCost({
      scenarios: [scenario],
      arms,
      seeds: 300,
      sampleSeeds: 3,
      modelId: 'claude-sonnet-4-5',
    });
    expect(scaled).toMatchObject({ totalRuns: 600, sampledRuns: 6, meanInputTokens: sample.meanInputTokens });
    expect(scaled.totalUsd).toBeCloseTo(sample.totalUsd! * 100, 6);
  });

  it('measures tokens but names no price for a model the table does not know', async () => {
    const estimate = await estimateSweepCost({ scenarios: [scenario], arms, seeds: 2, modelId: 'llama3.1' });
    expect(estimate.price).toBeUndefined();
    expect(estimate.totalUsd).toBeUndefined();
    expect(estimate.cells.every((cell) => cell.usd === undefined)).toBe(true);
    expect(estimate.meanInputTokens).toBeGreaterThan(0);
  });
});
