import type { CostEstimate } from '../sweep/cost-estimate.js';
import { formatDollars } from '../report/prices.js';
import { UserInputError } from '../user-input-error.js';
import type { RealModelTarget } from './model-choice.js';

/** Dollars a real sweep may be estimated at before spiralbench asks first. */
export const DEFAULT_MAX_COST_USD = 1;

/** Whether a real sweep may start without asking, and why. */
export type SpendDecision =
  | { readonly kind: 'go'; readonly why: 'under_limit' | 'local_without_price' }
  | { readonly kind: 'ask'; readonly why: 'over_limit' | 'no_price' };

/** Over the limit, or unknowable, needs a yes; a local server with no price costs nothing per token here. */
export function spendDecision(
  target: RealModelTarget,
  estimate: CostEstimate | undefined,
  maxCostUsd: number,
): SpendDecision {
  if (estimate === undefined || estimate.totalUsd === undefined) {
    return target.local && estimate?.price === undefined
      ? { kind: 'go', why: 'local_without_price' }
      : { kind: 'ask', why: 'no_price' };
  }
  return estimate.totalUsd > maxCostUsd ? { kind: 'ask', why: 'over_limit' } : { kind: 'go', why: 'under_limit' };
}

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The lines printed before a real sweep: where it goes, and what it may cost. */
export function describeRealSweep(target: RealModelTarget, estimate: CostEstimate | undefined, runs: number): string[] {
  const lines = [
    `real model: ${target.provider}:${target.modelId} at ${target.endpoint} · up to ${target.concurrency} request(s) at once · rate-limit headers honoured in wall-clock time`,
  ];
  if (estimate === undefined) {
    lines.push(
      `cost: ${target.endpoint} is a local server and the price table has no price for '${target.modelId}': no estimate, and no confirmation asked.`,
    );
    return lines;
  }
  const tokens = `a mean of ${count(estimate.meanInputTokens)} input and ${count(estimate.meanOutputTokens)} output tokens a run`;
  const source = `from ${count(estimate.sampledRuns)} in-process run(s) of the simulated model on the same scenarios, arms and ${estimate.sampledRuns === estimate.totalRuns ? 'seeds' : 'first seeds of each cell'}`;
  if (estimate.price === undefined || estimate.totalUsd === undefined) {
    lines.push(`cost: unknown: the price table has no price for '${estimate.modelId}' (${tokens}, ${source}).`);
    return lines;
  }
  const { inputPerMillion, outputPerMillion } = estimate.price;
  lines.push(
    `cost estimate for ${count(runs)} run(s): about ${formatDollars(estimate.totalUsd)} (the costliest simulated run: ${formatDollars(estimate.maxRunUsd ?? 0)})`,
    ...(estimate.intervalUsd === undefined
      ? []
      : [
          `  95% interval ${formatDollars(estimate.intervalUsd[0])}–${formatDollars(estimate.intervalUsd[1])}, from how the simulated runs vary; ${estimate.promptCache ? 'with prompt caching (--no-prompt-cache prices without)' : 'without prompt caching'}${estimate.batch ? ', at the batch price (half)' : ''}.`,
        ]),
    `  ${source},`,
    `  priced at ${estimate.modelId}'s list prices ($${inputPerMillion} / $${outputPerMillion} per million input / output tokens): ${tokens}.`,
    `  A real model takes its own turns and counts tokens with its own tokenizer: an estimate from the simulated model, not a quote.`,
  );
  // Arms differ by an order of magnitude (a spiral costs quadratically more), so show where it goes.
  if (estimate.cells.length > 1 && estimate.cells.length <= 12) {
    const scenarios = new Set(estimate.cells.map((cell) => cell.scenario)).size;
    const name = (cell: CostEstimate['cells'][number]) => (scenarios > 1 ? `${cell.scenario} · ${cell.arm}` : cell.arm);
    lines.push(
      `  by ${scenarios > 1 ? 'cell' : 'arm'}: ${estimate.cells.map((cell) => `${name(cell)} ${formatDollars(cell.usd ?? 0)}`).join(', ')}`,
    );
  }
  return lines;
}

export interface ConfirmOptions {
  readonly decision: SpendDecision;
  readonly estimate: CostEstimate | undefined;
  readonly maxCostUsd: number;
  /** `--yes`: never ask. */
  readonly yes: boolean;
  /** Whether a person can answer (stdin and stderr are terminals). */
  readonly interactive: boolean;
  /** Asks the question and resolves to the answer; only called when interactive. */
  readonly ask: (question: string) => Promise<string>;
}

/**
 * Resolves when the sweep may start; throws a UserInputError (nothing run) when it may
 * not: declined at the prompt, or no terminal to ask on and no `--yes`.
 */
export async function confirmSpend(options: ConfirmOptions): Promise<void> {
  const { decision } = options;
  if (decision.kind === 'go' || options.yes) return;
  const why =
    decision.why === 'no_price'
      ? 'the cost cannot be estimated (no price for this model)'
      : `the estimated cost (${formatDollars(options.estimate?.totalUsd ?? 0)}) is above --max-cost (${formatDollars(options.maxCostUsd)})`;
  if (!options.interactive) {
    throw UserInputError.single(
      '--yes',
      '',
      `${why} and there is no terminal to ask on; nothing was run. Pass --yes to run it anyway${decision.why === 'over_limit' ? ', or raise --max-cost' : ''}`,
    );
  }
  const answer = (await options.ask(`${why}. Run it? [y/N] `)).trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes')
    throw UserInputError.single('confirmation', '', `declined (${why}); nothing was run. --yes skips the question`);
}
