import type { AgentDefinition } from '../agents/define-agent.js';
import { scrubProcessSecrets } from '../secrets/process-secrets.js';
import { isSurvivable, survive } from './survival.js';
import { survivalMessage } from './survival-message.js';
import { resolveSurviveOptions, type SurviveOptions } from './survive-options.js';

/** What a matcher returns to vitest: a verdict and the message to print if it is wrong. */
export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

/** The part of vitest's matcher state the matcher reads. */
export interface SurviveMatcherState {
  /** Set under `.not`. */
  readonly isNot: boolean;
}

/**
 * The `toSurvive` matcher: runs the received agent (a definition, or its module's path)
 * over each scenario's seeds and passes when every scenario's success rate reaches
 * `minSuccess`. Registered by importing `spiralbench/vitest`; exported for `expect.extend`
 * under another name.
 *
 * @example
 * import { expect } from 'vitest';
 * import { toSurvive } from 'spiralbench/vitest';
 * expect.extend({ toSurvive });
 */
export async function toSurvive(
  this: SurviveMatcherState,
  received: unknown,
  scenario: string | readonly string[],
  options?: SurviveOptions,
): Promise<MatcherResult> {
  if (!isSurvivable(received))
    throw new TypeError(
      `toSurvive expects an agent made with defineAgent, or the path of the module that exports one; got ${typeof received}`,
    );
  const scenarios = typeof scenario === 'string' ? [scenario] : [...scenario];
  let survival: Awaited<ReturnType<typeof survive>>;
  try {
    survival = await survive(received as AgentDefinition | string, scenarios, resolveSurviveOptions(options));
  } catch (error) {
    throw scrubbedError(error);
  }
  // Test logs are CI logs: a key an agent's error quoted is redacted there as in results.
  return { pass: survival.survived, message: () => scrubProcessSecrets(survivalMessage(survival, this.isNot)) };
}

/** `error` with its message and stack, and its causes', free of this process's secrets. */
function scrubbedError(error: unknown): unknown {
  for (let at = error; at instanceof Error; at = at.cause) {
    at.message = scrubProcessSecrets(at.message);
    if (at.stack !== undefined) at.stack = scrubProcessSecrets(at.stack);
  }
  return error;
}
