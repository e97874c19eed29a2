import type { Usage } from '@anthropic-ai/sdk/resources/messages';

/**
 * Virtual time a model call takes: a fixed round trip, prompt processing and output
 * generation. Round numbers in the range of hosted models; the same for every arm.
 */
export function modelLatencyMs(usage: Pick<Usage, 'input_tokens' | 'output_tokens'>): number {
  return 400 + Math.round(usage.input_tokens * 0.05) + usage.output_tokens * OUTPUT_MS_PER_TOKEN;
}

/** Generation time per output token: the pace a streamed reply's blocks end at (see early-tool-start.ts). */
export const OUTPUT_MS_PER_TOKEN = 20;
