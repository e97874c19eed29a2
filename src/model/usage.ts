import type { Usage } from '@anthropic-ai/sdk/resources/messages';
import { BATCH_PRICE, callCost, type CacheTokens, NO_CACHE } from './model-table.js';

/** The fields of a reply's usage this module reads: what every client's usage has. */
export type UsageCounts = Pick<Usage, 'input_tokens' | 'output_tokens'> &
  Partial<Pick<Usage, 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'cache_creation' | 'service_tier'>>;

/**
 * Every input token of a call: those read afresh (`input_tokens`, which the API counts
 * after the last cache breakpoint only) and those the prompt cache read or wrote. The
 * loop's token figures and budgets, and the time a call takes, count all of them: a
 * cached prompt is as long as an uncached one, only cheaper.
 */
export function promptTokens(usage: UsageCounts): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** What the prompt cache read and wrote in a call, the writes by lifetime (5 minutes unless the API says otherwise). */
export function cacheTokensOf(usage: UsageCounts): CacheTokens {
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  if (read === 0 && written === 0) return NO_CACHE;
  const written1h = Math.min(written, usage.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  return { read, written5m: written - written1h, written1h };
}

/**
 * Dollars a call with this usage costs at `model`'s list prices, cache reads and writes
 * priced as such, and at half price when a message batch answered it (`service_tier: 'batch'`).
 */
export function usageCost(model: string, usage: UsageCounts): number {
  const cost = callCost(model, usage.input_tokens, usage.output_tokens, cacheTokensOf(usage));
  return usage.service_tier === 'batch' ? cost * BATCH_PRICE : cost;
}
