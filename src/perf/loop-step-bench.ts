import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { CheckpointStore } from '../durability/checkpoint-store.js';
import type { Scenario } from '../scenarios/loader.js';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import { withAsyncTools } from './async-scenario.js';
import { runBareLoop } from './bare-loop.js';
import { portableModel } from '../run/model-source.js';

export interface StepBenchRow {
  readonly task: string;
  /** Model calls per benchmark iteration (the same every iteration: runs are seeded). */
  readonly steps: number;
  readonly usPerStep: number;
  /** Relative margin of error of the mean, in percent. */
  readonly rme: number;
  readonly runsPerSecond: number;
  readonly ratioToBare: number;
}

export interface StepBenchOptions {
  readonly scenario: Scenario;
  /** Seeds per iteration: one iteration runs each once. @default 20 */
  readonly seeds?: number;
  /** Arms measured beside the bare loop. @default ['none', 'article', 'all'] */
  readonly arms?: readonly string[];
  /** Measuring time per task, in ms. @default 1500 */
  readonly timeMs?: number;
  /** Also measure `article` with the simulated model through the real Anthropic SDK. @default true */
  readonly sdk?: boolean;
  /** Also measure `article` with checkpoints and the envelope in memory and in a journal file. @default true */
  readonly checkpoints?: boolean;
  /** Also measure `article` with every reply streamed, in-process (and through the SDK when `sdk`). @default true */
  readonly stream?: boolean;
  /**
   * Also measure `article` with the scenario's tools answering through promises, as a
   * user's async tools do: the price of the asynchronous path beside the synchronous one.
   * @default true
   */
  readonly asyncTools?: boolean;
}

/**
 * µs per loop step (one model call and its tool calls), for a bare loop and for
 * BudgetedAgentLoop with each arm, measured side by side in one process with tinybench,
 * so the ratios hold whatever else the machine is doing.
 */
export async function benchLoopSteps(options: StepBenchOptions): Promise<StepBenchRow[]> {
  const { scenario } = options;
  const seeds = options.seeds ?? 20;
  const arms = (options.arms ?? ['none', 'article', 'all']).map((name) => ARM_PRESETS.get(name) as Arm);
  const steps = new Map<string, number>();
  const bench = new Bench({ time: options.timeMs ?? 1500, warmupTime: 300 });
  const stores: CheckpointStore[] = [];

  const bare = (): number => {
    let total = 0;
    for (let seed = 1; seed <= seeds; seed++)
      total += runBareLoop(scenario, { sweepSeed: 0, scenario: scenario.id, runSeed: seed });
    return total;
  };
  const loop =
    (arm: Arm, kind: 'simulated' | 'simulated-sdk', stream = false, tools = scenario) =>
    async (): Promise<number> => {
      let total = 0;
      for (let seed = 1; seed <= seeds; seed++)
        total += (await runOne({ sweepSeed: 0, scenario: tools, arm, seed, model: portableModel(kind), stream })).record
          .model_calls;
      return total;
    };

  steps.set('bare loop', bare());
  bench.add('bare loop', bare);
  for (const arm of arms) {
    const name = `loop: ${arm.name}`;
    const task = loop(arm, 'simulated');
    steps.set(name, await task());
    bench.add(name, task);
  }
  if (options.asyncTools !== false) {
    const arm = ARM_PRESETS.get('article') as Arm;
    const name = `loop: ${arm.name}, async tools`;
    const task = loop(arm, 'simulated', false, withAsyncTools(scenario));
    steps.set(name, await task());
    bench.add(name, task);
  }
  if (options.checkpoints !== false) {
    const arm = ARM_PRESETS.get('article') as Arm;
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-bench-'));
    for (const [kind, path] of [
      ['in memory', ':memory:'],
      ['file', join(dir, 'checkpoints.jsonl')],
    ] as const) {
      const store = new CheckpointStore(path);
      stores.push(store);
      let run = 0;
      const name = `loop: ${arm.name} + checkpoints (${kind})`;
      const task = async (): Promise<number> => {
        let total = 0;
        for (let seed = 1; seed <= seeds; seed++) {
          const durability = store.forRun(`bench-${(run += 1)}`, scenario.system);
          total += (await runOne({ sweepSeed: 0, scenario, arm, seed, durability })).record.model_calls;
        }
        return total;
      };
      steps.set(name, await task());
      bench.add(name, task);
    }
  }
  if (options.sdk !== false) {
    const arm = ARM_PRESETS.get('article') as Arm;
    const name = `loop: ${arm.name} via SDK`;
    const task = loop(arm, 'simulated-sdk');
    steps.set(name, await task());
    bench.add(name, task);
  }
  if (options.stream !== false) {
    const arm = ARM_PRESETS.get('article') as Arm;
    for (const kind of options.sdk === false ? (['simulated'] as const) : (['simulated', 'simulated-sdk'] as const)) {
      const name = `loop: ${arm.name}${kind === 'simulated-sdk' ? ' via SDK' : ''}, streamed`;
      const task = loop(arm, kind, true);
      steps.set(name, await task());
      bench.add(name, task);
    }
  }
  try {
    await bench.run();
  } finally {
    for (const store of stores) store.close();
  }

  const rows = bench.tasks.map((task) => {
    const result = task.result;
    if (result === undefined || !('latency' in result))
      throw new Error(`benchmark task '${task.name}' did not complete`);
    const taskSteps = steps.get(task.name) ?? 1;
    const usPerIteration = result.latency.mean * 1000;
    return {
      task: task.name,
      steps: taskSteps,
      usPerStep: usPerIteration / taskSteps,
      rme: result.latency.rme,
      runsPerSecond: (seeds * 1e6) / usPerIteration,
    };
  });
  const bareUs = rows[0]?.usPerStep ?? 1;
  return rows.map((row) => ({ ...row, ratioToBare: row.usPerStep / bareUs }));
}
