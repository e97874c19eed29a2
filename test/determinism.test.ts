import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveArms } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import { resolveScenarioSource } from '../src/sweep/scenario-source.js';
import { runSweep } from '../src/sweep/sweep.js';
import { loadScenario } from '../src/scenarios/loader.js';
import { cli, tempDir } from './cli-helpers.js';

describe('determinism', () => {
  it('writes byte-identical runs.jsonl, runs.csv and summary.json for the same sweep in two processes', () => {
    const [a, b] = [tempDir(), tempDir()];
    for (const dir of [a, b]) {
      const result = cli([
        'run',
        '--scenario',
        'fetch-transform-write',
        '--arms',
        'none,article',
        '--seeds',
        '40',
        '--out',
        dir,
      ]);
      expect(result.status, result.stderr).toBe(0);
    }
    for (const file of ['runs.jsonl', 'runs.csv', 'summary.json']) {
      expect(readFileSync(join(b, file), 'utf8'), file).toBe(readFileSync(join(a, file), 'utf8'));
    }
    expect(readFileSync(join(a, 'runs.jsonl'), 'utf8').trim().split('\n')).toHaveLength(80);
  });

  it('a run depends only on its own seed, not on the runs before it; the sweep seed changes it', async () => {
    const scenario = loadScenario('fetch-transform-write');
    const [arm] = resolveArms(['article']);
    const alone = (await runOne({ sweepSeed: 0, scenario, arm: arm!, seed: 25 })).record;
    for (let seed = 1; seed < 25; seed++) await runOne({ sweepSeed: 0, scenario, arm: arm!, seed });
    expect((await runOne({ sweepSeed: 0, scenario, arm: arm!, seed: 25 })).record).toEqual(alone);

    const summary = async (sweepSeed: number) =>
      JSON.stringify(
        (
          await runSweep({
            scenarios: [resolveScenarioSource(scenario.id)],
            arms: [arm!],
            seeds: 30,
            sweepSeed,
            workers: 1,
          })
        ).cells,
      );
    expect(await summary(9)).not.toBe(await summary(0));
  });
});
