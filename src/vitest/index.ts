/**
 * spiralbench's vitest matchers. Importing this module registers `toSurvive` with vitest's
 * `expect` and adds it to vitest's `Assertion` type, so an agent is gated like any other
 * unit under test. vitest is an optional peer dependency: only this entry needs it.
 *
 * @example
 * import 'spiralbench/vitest';
 * import { expect, it } from 'vitest';
 *
 * it('survives the reference scenario', async () => {
 *   await expect('./src/agent.ts').toSurvive('fetch-transform-write', { seeds: 200, minSuccess: 0.9 });
 * }, 60_000);
 *
 * @packageDocumentation
 */
import { expect } from 'vitest';
import type { SurviveOptions } from './survive-options.js';
import { toSurvive } from './to-survive.js';

export { toSurvive, type MatcherResult, type SurviveMatcherState } from './to-survive.js';
export type { SurviveOptions } from './survive-options.js';

expect.extend({ toSurvive });

/** The matcher as an assertion offers it. */
export interface SurviveMatchers {
  /**
   * Runs the agent (an `AgentDefinition`, or the path of its module; `path#export` picks an
   * export) over `seeds` seeds of each scenario and asserts that each scenario's success
   * rate reaches `minSuccess`. A failure lists the failing seeds, why each failed, and a
   * replay command for each. Await it; give the test a timeout that fits the sweep.
   *
   * @example
   * await expect(myAgent).toSurvive('fetch-transform-write', { seeds: 200, minSuccess: 0.9, module: new URL('./my-agent.ts', import.meta.url) });
   */
  toSurvive(scenario: string | readonly string[], options?: SurviveOptions): Promise<void>;
}

// vitest's own extension point (since 3.2): `Assertion` extends `Matchers`, so `expect(x)`
// and `expect(x).not` get the method. Augmenting `Assertion` itself clashes with other
// libraries' augmentations of it (@langchain/core declares it with other type parameters).
declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: an augmentation must repeat vitest's own type parameters, default included.
  interface Matchers<T = any> extends SurviveMatchers {}
}
