import { z } from 'zod';
import { type FaultProfile, RATE_FAULT_KINDS } from './fault-profile.js';
import { toolDataFaultsSchema } from './data/index.js';

const probability = z.number().min(0).max(1);

const faultRates = z.strictObject(
  Object.fromEntries(
    RATE_FAULT_KINDS.map((kind) => [kind, probability.optional().describe(`Chance per execution of a ${kind} fault.`)]),
  ),
);
const toolFaults = faultRates.extend({
  unauthorized_after: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'From this 0-based execution of the tool on, it answers HTTP 401 (a credential revoked mid-task). Not drawn from the rates; an entry holding only this keeps the scenario-wide rates.',
    ),
});

/**
 * A scenario's `faults:` block as written; `withFaults` takes the same block, so a tool meets
 * the same faults in a user's own test as in a sweep.
 */
export const faultsSchema = z.strictObject({
  rates: faultRates.default({}).describe('Fault rates for every tool; one draw per execution picks at most one fault.'),
  tools: z
    .record(z.string(), toolFaults)
    .default({})
    .describe('Per-tool faults; rates given here replace `rates` for that tool.'),
  retry_after_ms: z.number().int().min(0).default(1000).describe('The retry-after a 429 carries, in ms.'),
  timeout_ms: z.number().int().min(0).default(10_000).describe('How long a timed-out call hangs, in ms.'),
  data: z
    .record(z.string(), toolDataFaultsSchema)
    .default({})
    .describe(
      'Per tool: faults in the data of its successful answers (injected instructions, stale reads, wrong entities, empty results, truncated pages, schema drift). One draw per successful execution picks at most one.',
    ),
});

/** A `faults:` block as written (fields with a default may be left out). */
export type FaultsInput = z.input<typeof faultsSchema>;

/** A `faults:` block as written, read into the profile the flaky wrapper draws from. */
export function faultProfileOf(faults: z.output<typeof faultsSchema>): FaultProfile {
  const rates = Object.fromEntries(
    Object.entries(faults.tools)
      .map(([tool, { unauthorized_after: _, ...toolRates }]) => [tool, toolRates] as const)
      // An entry that only schedules a 401 keeps the scenario-wide rates.
      .filter(([, toolRates]) => Object.keys(toolRates).length > 0),
  );
  const unauthorizedAfter = Object.fromEntries(
    Object.entries(faults.tools).flatMap(([tool, toolFaults]) =>
      toolFaults.unauthorized_after === undefined ? [] : [[tool, toolFaults.unauthorized_after] as const],
    ),
  );
  return {
    rates: faults.rates,
    tools: rates,
    unauthorizedAfter,
    retryAfterMs: faults.retry_after_ms,
    timeoutMs: faults.timeout_ms,
    data: faults.data,
  };
}
