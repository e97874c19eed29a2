import { OUTCOME_KINDS } from '../loop/outcome.js';
import type { Scenario } from '../scenarios/loader.js';
import { summariseCell, type CellSummary } from '../stats/cell-summary.js';
import { VERSION } from '../version.js';
import type { Arm } from './arms.js';
import { ResultsWriter } from './results-writer.js';
import { runOne, type ModelChoice } from './run-one.js';
import type { RunRecord } from './run-record.js';

export interface SweepOptions {
  readonly scenarios: readonly Scenario[];
  readonly arms: readonly Arm[];
  /** Runs per (scenario, arm) cell. */
  readonly seeds: number;
  /** The first run seed; runs use baseSeed, baseSeed + 1, ... @default 1 */
  readonly baseSeed?: number;
  /** Namespace of every random stream of the sweep. @default 0 */
  readonly sweepSeed?: number;
  /** @default in-process simulated model */
  readonly model?: ModelChoice;
  /** Folder for runs.jsonl, runs.csv and summary.json; nothing is written without it. */
  readonly outDir?: string;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface SweepSummary {
  readonly spiralbench: string;
  readonly sweep_seed: number;
  readonly seeds: { readonly base: number; readonly count: number };
  readonly model: string;
  readonly scenarios: ReadonlyArray<{ readonly id: string; readonly hash: string; readonly tool_budget: number }>;
  readonly arms: readonly Arm[];
  readonly cells: readonly CellSummary[];
}

/**
 * Runs the matrix scenario × arm × seed in that order, writing each finished run as it
 * goes. The order of runs, and so every output byte, depends only on the options.
 */
export async function runSweep(options: SweepOptions): Promise<SweepSummary> {
  const { scenarios, arms, seeds } = options;
  const baseSeed = options.baseSeed ?? 1;
  const sweepSeed = options.sweepSeed ?? 0;
  const model = options.model ?? { kind: 'simulated' };
  const writer = options.outDir === undefined ? undefined : new ResultsWriter(options.outDir);
  const total = scenarios.length * arms.length * seeds;
  const cells: CellSummary[] = [];
  let done = 0;
  let modelName = model.kind === 'client' ? model.client.name : model.kind;

  for (const scenario of scenarios) {
    for (const arm of arms) {
      const records: RunRecord[] = [];
      for (let seed = baseSeed; seed < baseSeed + seeds; seed++) {
        const { record } = await runOne({ sweepSeed, scenario, arm, seed, model });
        modelName = record.model;
        records.push(record);
        writer?.add(record);
        done += 1;
        options.onProgress?.(done, total);
      }
      cells.push(summariseCell(scenario.id, arm.name, records, OUTCOME_KINDS));
    }
  }

  const summary: SweepSummary = {
    spiralbench: VERSION,
    sweep_seed: sweepSeed,
    seeds: { base: baseSeed, count: seeds },
    model: modelName,
    scenarios: scenarios.map((scenario) => ({ id: scenario.id, hash: scenario.hash, tool_budget: scenario.toolBudget })),
    arms,
    cells,
  };
  writer?.close(summary);
  return summary;
}
