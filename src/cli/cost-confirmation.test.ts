import { describe, expect, it } from 'vitest';
import type { CostEstimate } from '../sweep/cost-estimate.js';
import { modelSpec } from '../model/model-table.js';
import { UserInputError } from '../user-input-error.js';
import { confirmSpend, describeRealSweep, spendDecision, type ConfirmOptions } from './cost-confirmation.js';
import type { RealModelTarget } from './model-choice.js';

const claude: RealModelTarget = {
  provider: 'anthropic',
  modelId: 'claude-sonnet-4-5',
  endpoint: 'https://api.anthropic.com',
  local: false,
  concurrency: 4,
};
const ollama: RealModelTarget = {
  provider: 'openai-compatible',
  modelId: 'llama3.1',
  endpoint: 'http://localhost:11434/v1',
  local: true,
  concurrency: 4,
};
const estimate = (totalUsd: number | undefined): CostEstimate => ({
  modelId: 'claude-sonnet-4-5',
  price: totalUsd === undefined ? undefined : modelSpec('claude-sonnet-4-5'),
  totalRuns: 200,
  sampledRuns: 200,
  meanInputTokens: 36_011.4,
  meanOutputTokens: 894.2,
  totalUsd,
  maxRunUsd: totalUsd === undefined ? undefined : 3.4,
  intervalUsd: totalUsd === undefined ? undefined : [totalUsd * 0.9, totalUsd * 1.1],
  promptCache: true,
  batch: false,
  cells: [
    { scenario: 'fetch-transform-write', arm: 'none', usd: totalUsd === undefined ? undefined : totalUsd * 0.75 },
    { scenario: 'fetch-transform-write', arm: 'article', usd: totalUsd === undefined ? undefined : totalUsd * 0.25 },
  ],
});

describe('spendDecision', () => {
  it('goes under the limit, asks over it or when the cost is unknown, and lets a local server without a price go', () => {
    expect(spendDecision(claude, estimate(0.5), 1)).toEqual({ kind: 'go', why: 'under_limit' });
    expect(spendDecision(claude, estimate(24.29), 1)).toEqual({ kind: 'ask', why: 'over_limit' });
    expect(spendDecision(claude, estimate(undefined), 1)).toEqual({ kind: 'ask', why: 'no_price' });
    expect(spendDecision(ollama, undefined, 1)).toEqual({ kind: 'go', why: 'local_without_price' });
    expect(spendDecision({ ...ollama, local: false }, estimate(undefined), 1)).toEqual({
      kind: 'ask',
      why: 'no_price',
    });
  });
});

describe('describeRealSweep', () => {
  it('says where requests go, what the estimate is made of and that it is not a quote', () => {
    expect(describeRealSweep(claude, estimate(24.29), 200)).toEqual([
      'real model: anthropic:claude-sonnet-4-5 at https://api.anthropic.com · up to 4 request(s) at once · rate-limit headers honoured in wall-clock time',
      'cost estimate for 200 run(s): about $24.29 (the costliest simulated run: $3.40)',
      '  95% interval $21.86–$26.72, from how the simulated runs vary; with prompt caching (--no-prompt-cache prices without).',
      '  from 200 in-process run(s) of the simulated model on the same scenarios, arms and seeds,',
      "  priced at claude-sonnet-4-5's list prices ($3 / $15 per million input / output tokens): a mean of 36,011 input and 894 output tokens a run.",
      '  A real model takes its own turns and counts tokens with its own tokenizer: an estimate from the simulated model, not a quote.',
      '  by arm: none $18.22, article $6.07',
    ]);
    expect(describeRealSweep(ollama, undefined, 10)[1]).toBe(
      "cost: http://localhost:11434/v1 is a local server and the price table has no price for 'llama3.1': no estimate, and no confirmation asked.",
    );
  });
});

describe('confirmSpend', () => {
  const asked: string[] = [];
  const options = (overrides: Partial<ConfirmOptions>): ConfirmOptions => ({
    decision: { kind: 'ask', why: 'over_limit' },
    estimate: estimate(24.29),
    maxCostUsd: 1,
    yes: false,
    interactive: true,
    ask: async (question) => {
      asked.push(question);
      return 'y';
    },
    ...overrides,
  });

  it('starts without asking when the decision is go, or with --yes', async () => {
    asked.length = 0;
    await confirmSpend(options({ decision: { kind: 'go', why: 'under_limit' } }));
    await confirmSpend(options({ yes: true, interactive: false }));
    expect(asked).toEqual([]);
  });

  it('asks on a terminal and starts on y', async () => {
    asked.length = 0;
    await confirmSpend(options({}));
    expect(asked).toEqual(['the estimated cost ($24.29) is above --max-cost ($1.00). Run it? [y/N] ']);
  });

  it('refuses on anything but y, and without a terminal names --yes', async () => {
    await expect(confirmSpend(options({ ask: async () => '' }))).rejects.toThrow(
      /^confirmation: declined \(the estimated cost \(\$24\.29\) is above --max-cost \(\$1\.00\)\); nothing was run/,
    );
    await expect(confirmSpend(options({ ask: async () => 'no' }))).rejects.toBeInstanceOf(UserInputError);
    await expect(confirmSpend(options({ interactive: false }))).rejects.toThrow(
      '--yes: the estimated cost ($24.29) is above --max-cost ($1.00) and there is no terminal to ask on; nothing was run. Pass --yes to run it anyway, or raise --max-cost',
    );
    await expect(
      confirmSpend(
        options({ interactive: false, decision: { kind: 'ask', why: 'no_price' }, estimate: estimate(undefined) }),
      ),
    ).rejects.toThrow(
      '--yes: the cost cannot be estimated (no price for this model) and there is no terminal to ask on; nothing was run. Pass --yes to run it anyway',
    );
  });
});
