import type { Scenario } from '../scenarios/loader.js';
import type { ToolSpec } from '../tools/tool-spec.js';

const asyncTwins = new WeakMap<Scenario, Scenario>();

/**
 * The scenario with every tool's handler asynchronous: it answers through a promise (and a
 * throw becomes a rejection), as a user's async tool does, with the same results. Runs of
 * it take the asynchronous path through every layer and must end exactly as the
 * synchronous scenario's do; the benchmark prices that path with it. Made once per
 * scenario, so its runs share one tool table as a sweep's do.
 */
export function withAsyncTools(scenario: Scenario): Scenario {
  let twin = asyncTwins.get(scenario);
  if (twin === undefined) {
    twin = { ...scenario, tools: scenario.tools.map(answeringThroughPromise) };
    asyncTwins.set(scenario, twin);
  }
  return twin;
}

function answeringThroughPromise(spec: ToolSpec): ToolSpec {
  return { ...spec, run: async (input, world) => spec.run(input, world) };
}
