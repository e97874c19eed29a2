import { type RunConclusions, readRunConclusions } from '../report/run-conclusions.js';
import { storedConclusions } from '../report/stored-conclusions.js';
import { extendSummary } from '../results/results-writer.js';
import type { StoredSummary } from '../results/summary-schema.js';

/**
 * What a whole sweep of two or more arms concludes (the labels, the recommendation and its
 * scenario mix), read from its saved runs and added to its summary.json, so a merged sweep
 * ends byte for byte like the same sweep run whole. A shard is a slice of the seeds and
 * concludes nothing: its differences between arms would be half an answer.
 */
export async function concludeSweep(
  dir: string,
  summary: StoredSummary,
): Promise<{ readonly summary: StoredSummary; readonly conclusions: RunConclusions | undefined }> {
  if (summary.shard !== null || summary.arms.length < 2) return { summary, conclusions: undefined };
  const conclusions = await readRunConclusions(dir, summary);
  return { summary: extendSummary(dir, summary, { conclusions: storedConclusions(conclusions) }), conclusions };
}
