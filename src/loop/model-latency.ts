import { promptTokens, type UsageCounts } from '../model/usage.js';

/**
 * Virtual time a model call takes: a fixed round trip, prompt processing and output
 * generation. Round numbers in the range of hosted models; the same for every arm. The
 * whole prompt counts, cached or not: a cache read is cheaper, and its speed-up is not
 * modelled (docs/cost.md).
 */
export function modelLatencyMs(usage: UsageCounts): number {
  return 400 + Math.round(promptTokens(usage) * 0.05) + usage.output_tokens * OUTPUT_MS_PER_TOKEN;
}

/** Generation time per output token: the pace a streamed reply's blocks end at (see early-tool-start.ts). */
export const OUTPUT_MS_PER_TOKEN = 20;
