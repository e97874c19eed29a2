import { createInterface } from 'node:readline/promises';
import type { Arm } from '../arms/arms.js';
import { estimateSweepCost } from '../sweep/cost-estimate.js';
import type { Shard } from '../sweep/sweep-plan.js';
import type { Scenario } from '../scenarios/loader.js';
import { describeFailure } from '../run/failure-reason.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { SweepHealth, type NeverAnswered } from '../sweep/sweep-health.js';
import { confirmSpend, describeRealSweep, spendDecision } from './cost-confirmation.js';
import type { RealModelTarget } from './model-choice.js';
import { ModelUnreachable } from './model-unreachable.js';
import type { SweepStop } from './sweep-until-interrupted.js';
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
  /** @default true */
  readonly promptCache?: boolean;
  /** @default false */
  readonly batch?: boolean;
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
        promptCache: plan.promptCache !== false,
        batch: plan.batch === true,
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

/** What watches a real sweep for a model that never answers (see SweepHealth). */
export interface RealSweepWatch {
  /** For the sweep's `onRecord`: reads each record as it is written. */
  readonly onRecord: (record: RunRecord) => void;
  /** Aborted once the first runs say the model never answers; the sweep then throws ModelUnreachable. */
  readonly stop: SweepStop;
  /**
   * After a sweep that ran to its end: throws ModelUnreachable when no run of its first
   * ones got a reply (a sweep too short to stop early, or whose last runs were in flight).
   */
  finished(): void;
}

/**
 * Stops a real sweep early, like a Ctrl-C (the runs in flight are written, `--resume`
 * continues), once its first runs all failed before a single reply: a wrong URL, key or
 * model id must not cost a whole sweep of failed runs and a silent exit 0.
 */
export function watchRealSweep(outDir: string): RealSweepWatch {
  const health = new SweepHealth();
  const stopping = new AbortController();
  let early: NeverAnswered | null = null;
  const sentence = ({ runs, reason }: NeverAnswered) =>
    `the real model never answered: ${runs === 1 ? 'its only run' : `${early === null ? 'all' : 'the first'} ${runs} runs`} failed before a single reply — ${describeFailure(reason)}`;
  return {
    onRecord(record) {
      if (early !== null) return;
      early = health.observe(record);
      if (early !== null) stopping.abort();
    },
    stop: {
      signal: stopping.signal,
      error: ({ done, total, resume }) =>
        new ModelUnreachable(
          `${sentence(early!)}; ${done} of ${total} runs are written to ${outDir}; resume with: ${resume}`,
        ),
    },
    finished() {
      const end = early ?? health.finish();
      if (end === null) return;
      throw new ModelUnreachable(
        `${sentence(end)}; the sweep is complete in ${outDir}: run it again once the model answers`,
      );
    },
  };
}
