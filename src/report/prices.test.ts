import { describe, expect, it } from 'vitest';
import { costOf, formatDollars, priceFor } from './prices.js';

describe('priceFor', () => {
  it('prices the simulated model as the default model, and says so', () => {
    for (const model of ['simulated', 'simulated-sdk']) {
      const choice = priceFor(model);
      expect(choice).toMatchObject({
        pricedAs: 'claude-sonnet-5-5',
        simulated: true,
        price: { inputPerMillion: 3, outputPerMillion: 15 },
      });
    }
  });

  it('looks real Claude ids up by prefix, with or without the provider in front', () => {
    expect(priceFor('anthropic:claude-haiku-4-5')).toMatchObject({
      pricedAs: 'claude-haiku-4-5',
      simulated: false,
      price: { inputPerMillion: 1, outputPerMillion: 5 },
    });
    expect(priceFor('claude-opus-4-1')?.price).toMatchObject({ inputPerMillion: 15, outputPerMillion: 75 });
    expect(priceFor('claude-sonnet-4-5')?.price).toMatchObject({ inputPerMillion: 3, outputPerMillion: 15 });
  });

  it('has no price for a model it does not know', () => {
    expect(priceFor('gpt-x')).toBeUndefined();
  });
});

describe('costOf and formatDollars', () => {
  it('computes dollars from tokens at per-million prices', () => {
    const sonnet = priceFor('simulated')!.price;
    // 63,759.05 input and 1,169.18 output tokens: 0.19127715 + 0.0175377
    expect(costOf(sonnet, 63_759.05, 1_169.18)).toBeCloseTo(0.20881485, 10);
    expect(costOf(sonnet, 1_000_000, 0)).toBe(3);
  });

  it('shows cents for small amounts and whole dollars for large ones', () => {
    expect([0, 0.004213, 0.20881, 1.2749, 312.4, 12_345.6].map(formatDollars)).toEqual([
      '$0',
      '$0.00421',
      '$0.209',
      '$1.27',
      '$312',
      '$12,346',
    ]);
  });
});
