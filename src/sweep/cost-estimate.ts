import { BATCH_PRICE, modelSpec, type ModelSpec } from '../model/model-table.js';
import type { Scenario } from '../scenarios/loader.js';
import type { Arm } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import { inProcessModel } from '../run/model-source.js';

export interface CostEstimateOptions {
  readonly scenarios: readonly Scenario[];
  readonly arms: readonly Arm[];
  /** Runs per (scenario, arm) cell in the real sweep. */
  readonly seeds: number;
  /** @default 1 */
  readonly baseSeed?: number;
  /** @default 0 */
  readonly sweepSeed?: number;
  /** The real model's id: its list prices and context window apply. */
  readonly modelId: string;
  /**
   * Simulated runs per cell, the sweep's own first seeds. In-process runs cost well under
   * a millisecond each, so up to this many every seed is simulated. @default 200
   */
  readonly sampleSeeds?: number;
  /** Our loop's requests marked for the prompt cache, as the sweep's will be. @default true */
  readonly promptCache?: boolean;
  /** The sweep goes through the Message Batches API (`run --batch`): every call at half price. @default false */
  readonly batch?: boolean;
}

/** What the simulated model's runs say a real sweep would cost; never a quote. */
export interface CostEstimate {
  readonly modelId: string;
  /** The model table's entry; undefined when the table has no price for the id. */
  readonly price: ModelSpec | undefined;
  readonly totalRuns: number;
  readonly sampledRuns: number;
  /** Per run, over the sampled runs. */
  readonly meanInputTokens: number;
  readonly meanOutputTokens: number;
  /** Each cell's mean cost a run × its runs, summed; undefined without a price. */
  readonly totalUsd: number | undefined;
  /**
   * A 95% interval of the total, as far as the simulated runs can say: the spread of a
   * cell's runs (the real sweep's runs are draws like them) and the uncertainty of each
   * mean from its sample, normal approximation. Not of the real model's difference from
   * the simulated one, which no sample shows. Undefined without a price.
   */
  readonly intervalUsd: readonly [number, number] | undefined;
  /** The costliest sampled run: what the tail of a cell can cost. */
  readonly maxRunUsd: number | undefined;
  /** Whether the runs were priced with prompt caching, as the sweep will run. */
  readonly promptCache: boolean;
  /** Whether they were priced at the Message Batches API's half price. */
  readonly batch: boolean;
  /** Each (scenario, arm) cell's share, in sweep order; `usd` undefined without a price. */
  readonly cells: ReadonlyArray<{ readonly scenario: string; readonly arm: string; readonly usd: number | undefined }>;
}

/**
 * Estimates a real-model sweep by running the same scenarios, arms and (a sample of the)
 * seeds on the simulated model in-process, with requests naming the real model, and
 * pricing the tokens they used at the model table's list prices (each call at the model
 * that answered it: a fallback or a compaction summary at its own price). The simulated
 * model counts tokens with the harness's estimator, not the real tokenizer, and a real
 * model may take more or fewer turns: an estimate of the order of magnitude.
 *
 * @example
 * const estimate = await estimateSweepCost({ scenarios, arms, seeds: 100, modelId: 'claude-sonnet-4-5' });
 */
export async function estimateSweepCost(options: CostEstimateOptions): Promise<CostEstimate> {
  const baseSeed = options.baseSeed ?? 1;
  const sweepSeed = options.sweepSeed ?? 0;
  const sample = Math.min(options.seeds, options.sampleSeeds ?? 200);
  const price = modelSpec(options.modelId);
  const share = options.batch === true ? BATCH_PRICE : 1;
  let sampledRuns = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let totalUsd = 0;
  let totalVariance = 0;
  let maxRunUsd = 0;
  const cells: Array<CostEstimate['cells'][number]> = [];
  for (const scenario of options.scenarios) {
    for (const arm of options.arms) {
      let cellUsd = 0;
      let cellSquares = 0;
      for (let seed = baseSeed; seed < baseSeed + sample; seed++) {
        const { record } = await runOne({
          sweepSeed,
          scenario,
          arm,
          seed,
          model: inProcessModel(options.modelId),
          // A batched sweep's turns are minutes apart: its cache is marked for an hour (2× to write).
          promptCache: options.promptCache === false ? false : options.batch === true ? '1h' : true,
        });
        sampledRuns += 1;
        inputTokens += record.input_tokens;
        outputTokens += record.output_tokens;
        const runUsd = record.cost_usd * share;
        cellUsd += runUsd;
        cellSquares += runUsd * runUsd;
        maxRunUsd = Math.max(maxRunUsd, runUsd);
      }
      const usd = sample === 0 ? 0 : (cellUsd / sample) * options.seeds;
      totalUsd += usd;
      if (sample > 1) {
        const mean = cellUsd / sample;
        const variance = Math.max(0, (cellSquares - sample * mean * mean) / (sample - 1));
        // The real cell's runs vary as the sample's do; its mean is known to within the sample's error.
        totalVariance += options.seeds * variance + (options.seeds * options.seeds * variance) / sample;
      }
      cells.push({ scenario: scenario.id, arm: arm.name, usd: price === undefined ? undefined : usd });
    }
  }
  return {
    modelId: options.modelId,
    price,
    totalRuns: options.scenarios.length * options.arms.length * options.seeds,
    sampledRuns,
    meanInputTokens: sampledRuns === 0 ? 0 : inputTokens / sampledRuns,
    meanOutputTokens: sampledRuns === 0 ? 0 : outputTokens / sampledRuns,
    totalUsd: price === undefined ? undefined : totalUsd,
    intervalUsd:
      // One run a cell says nothing of how its runs vary.
      price === undefined || sample < 2
        ? undefined
        : [Math.max(0, totalUsd - 1.96 * Math.sqrt(totalVariance)), totalUsd + 1.96 * Math.sqrt(totalVariance)],
    maxRunUsd: price === undefined ? undefined : maxRunUsd,
    promptCache: options.promptCache !== false,
    batch: options.batch === true,
    cells,
  };
}
