import { createInterface } from 'node:readline/promises';
import type { Arm } from '../bench/arms.js';
import { estimateSweepCost } from '../bench/cost-estimate.js';
import type { Shard } from '../bench/sweep-plan.js';
import type { Scenario } from '../scenarios/loader.js';
import { confirmSpend, describeRealSweep, spendDecision } from './cost-confirmation.js';
import type { RealModelTarget } from './model-choice.js';
import { modelSpec } from '../model/model-table.js';

export interface RealSweepPlan {
  readonly target: RealModelTarget;
  readonly scenarios: readonly Scenario[];
  readonly arms: readonly Arm[];
  readonly seeds: number;
  readonly baseSeed: number;
  readonly sweepSeed: number;
  readonly shard?: Shard;
  readonly maxCostUsd: number;
  readonly yes: boolean;
  /** @default process.stderr */
  readonly write?: (text: string) => void;
}

/**
 * Before the first request of a real sweep: says where it goes, estimates what it costs
 * (from the simulated model, in-process: no request leaves the machine) and asks when the
 * estimate is over `--max-cost` or unknown. Throws a UserInputError when it may not start.
 */
export async function prepareRealSweep(plan: RealSweepPlan): Promise<void> {
  const write = plan.write ?? ((text: string) => process.stderr.write(text));
  const { target } = plan;
  // A local server with no price has nothing to estimate; simulating the sweep would only cost time.
  const priced = !target.local || modelSpec(target.modelId) !== undefined;
  const estimate = priced
    ? await estimateSweepCost({
        scenarios: plan.scenarios,
        arms: plan.arms,
        seeds: plan.seeds,
        baseSeed: plan.baseSeed,
        sweepSeed: plan.sweepSeed,
        modelId: target.modelId,
      })
    : undefined;
  const runs = plan.scenarios.length * plan.arms.length * plan.seeds;
  const lines = describeRealSweep(target, estimate, runs);
  if (plan.shard !== undefined)
    lines.push(
      `  (the whole sweep: shard ${plan.shard.index}/${plan.shard.count} runs about 1/${plan.shard.count} of it)`,
    );
  write(`${lines.join('\n')}\n`);
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
  await confirmSpend({
    decision: spendDecision(target, estimate, plan.maxCostUsd),
    estimate,
    maxCostUsd: plan.maxCostUsd,
    yes: plan.yes,
    interactive,
    async ask(question) {
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await prompt.question(question);
      } finally {
        prompt.close();
      }
    },
  });
}
