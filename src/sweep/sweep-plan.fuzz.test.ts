import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/fuzz-runs.js';
import { UserInputError } from '../user-input-error.js';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { checkSeeds, MAX_SEEDS_PER_CELL, planSweep, type SweepDefinition } from './sweep-plan.js';

const arms = ['none', 'article', 'all'].map((name) => ARM_PRESETS.get(name) as Arm);

function definition(scenarios: number, armCount: number, base: number, count: number): SweepDefinition {
  return {
    scenarios: Array.from({ length: scenarios }, (_, i) => ({ id: `s${i}`, path: `s${i}.yaml` })),
    arms: arms.slice(0, armCount),
    seeds: { base, count },
    sweepSeed: 0,
    model: 'simulated',
  };
}

describe('sweep plans', () => {
  it('checkSeeds: any numbers are accepted exactly when every run seed is a safe integer, else a UserInputError', () => {
    const anyNumber = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, 1, MAX_SEEDS_PER_CELL, MAX_SEEDS_PER_CELL + 1, Number.MAX_SAFE_INTEGER, 2 ** 53, Number.NaN),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    );
    fc.assert(
      fc.property(anyNumber, anyNumber, (base, count) => {
        const exact =
          Number.isSafeInteger(base) &&
          Number.isSafeInteger(count) &&
          base >= 0 &&
          count >= 1 &&
          count <= MAX_SEEDS_PER_CELL &&
          base + count <= Number.MAX_SAFE_INTEGER;
        try {
          checkSeeds({ base, count });
          expect(exact).toBe(true);
        } catch (error) {
          if (!(error instanceof UserInputError)) throw error;
          expect(exact).toBe(false);
          expect(error.message).toMatch(/^--(seeds|first-seed): .+/);
        }
      }),
      { numRuns: fuzzRuns() },
    );
  });

  it('any shard of any sweep: chunks in order, within the chunk size and one cell, shards joining into the whole', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER - 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 12 }),
        (scenarios, armCount, base, count, chunkSize, shards) => {
          const sweep = definition(scenarios, armCount, base, count);
          const runs: string[] = [];
          for (let index = 1; index <= shards; index++) {
            const plan = planSweep(sweep, chunkSize, { index, count: shards });
            let planned = 0;
            for (let i = 0; i < plan.chunkCount; i++) {
              const chunk = plan.chunk(i);
              expect(chunk.index).toBe(i);
              expect(chunk.seedTo - chunk.seedFrom).toBeGreaterThan(0);
              expect(chunk.seedTo - chunk.seedFrom).toBeLessThanOrEqual(chunkSize);
              expect(chunk.seedFrom).toBeGreaterThanOrEqual(base);
              expect(chunk.seedTo).toBeLessThanOrEqual(base + count);
              for (let seed = chunk.seedFrom; seed < chunk.seedTo; seed++)
                runs.push(`${chunk.scenarioIndex}/${chunk.armIndex}/${seed}`);
              planned += chunk.seedTo - chunk.seedFrom;
            }
            expect(planned).toBe(plan.runs);
          }
          const whole = Array.from({ length: scenarios * armCount * count }, (_, run) => {
            const cell = Math.floor(run / count);
            return `${Math.floor(cell / armCount)}/${cell % armCount}/${base + (run % count)}`;
          });
          expect(runs).toEqual(whole);
        },
      ),
      { numRuns: fuzzRuns() },
    );
  });
});
