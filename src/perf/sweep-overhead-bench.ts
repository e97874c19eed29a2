import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { inProcessModel } from '../run/model-source.js';
import { runOne } from '../arms/run-one.js';
import type { ScenarioSource } from '../sweep/scenario-source.js';
import { runSweep } from '../sweep/sweep.js';

export interface SweepOverheadRow {
  readonly task: string;
  readonly runs: number;
  readonly usPerRun: number;
  /** Relative margin of error of the mean, in percent. */
  readonly rme: number;
  /** µs per run ÷ the loop alone's. */
  readonly ratioToLoop: number;
}

export interface SweepOverheadOptions {
  readonly source: ScenarioSource;
  /** Runs per iteration. @default 2000 */
  readonly runs?: number;
  /** The arm both run. @default 'none' */
  readonly arm?: string;
  /** Measuring time per task, in ms. @default 1500 */
  readonly timeMs?: number;
}

/**
 * What a sweep adds to the runs it is made of, in one thread, side by side: the same seeds
 * run by `runOne` with their records dropped (the loop alone), and by `runSweep` into a
 * results folder (chunks, runs.jsonl and runs.csv, their syncs, cell summaries, traces
 * and summary.json). Workers are left out: they add threads, not work per run.
 */
export async function benchSweepOverhead(options: SweepOverheadOptions): Promise<SweepOverheadRow[]> {
  const { source } = options;
  const runs = options.runs ?? 2000;
  const arm = ARM_PRESETS.get(options.arm ?? 'none') as Arm;
  const model = inProcessModel();
  const dir = mkdtempSync(join(tmpdir(), 'spiralbench-sweep-bench-'));
  const bench = new Bench({ time: options.timeMs ?? 1500, warmupTime: 300 });
  bench.add('loop alone', async () => {
    for (let seed = 1; seed <= runs; seed++)
      await runOne({ sweepSeed: 0, scenario: source.scenario, arm, seed, model });
  });
  bench.add('sweep, 1 thread, to a folder', async () => {
    await runSweep({
      scenarios: [source],
      arms: [arm],
      seeds: runs,
      workers: 1,
      outDir: join(dir, 'out'),
      discard: true,
    });
  });
  try {
    await bench.run();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = bench.tasks.map((task) => {
    const result = task.result;
    if (result === undefined || !('latency' in result))
      throw new Error(`benchmark task '${task.name}' did not complete`);
    return { task: task.name, runs, usPerRun: (result.latency.mean * 1000) / runs, rme: result.latency.rme };
  });
  const loopUs = rows[0]?.usPerRun ?? 1;
  return rows.map((row) => ({ ...row, ratioToLoop: row.usPerRun / loopUs }));
}
