import { peerByArm } from '../peers/peer-registry.js';
import type { Scenario } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from './arms.js';
import type { ModelChoice } from './run-one.js';

/**
 * Refuses, before anything runs, a sweep a peer arm cannot take part in: a real model
 * (peers drive the simulated endpoint only), a streamed sweep, an `api: openai-chat` scenario for a
 * peer on the Anthropic API (its reply faults would never reach the peer), or a scenario whose history has tool blocks
 * that the peer cannot replay in its own message types.
 */
export function checkPeerSweep(
  arms: readonly Arm[],
  scenarios: readonly Scenario[],
  model: ModelChoice,
  options: { readonly stream?: boolean } = {},
): void {
  const peers = arms.filter((arm) => arm.peer !== undefined);
  if (peers.length === 0) return;
  if (options.stream === true) {
    throw UserInputError.single(
      '--stream',
      '',
      `peer arms (${peers.map((arm) => arm.name).join(', ')}) run unstreamed, in their frameworks' own way; leave --stream out, or drop them`,
    );
  }
  if (model.kind === 'client') {
    throw UserInputError.single(
      '--arms',
      '',
      `peer arms (${peers.map((arm) => arm.name).join(', ')}) run against the simulated model only; leave --model out, or drop them`,
    );
  }
  if (model.kind === 'live') {
    // A peer drives its own in-process client and tools: it would run virtually inside a sweep labelled live.
    throw UserInputError.single(
      '--arms',
      '',
      `peer arms (${peers.map((arm) => arm.name).join(', ')}) do not run live yet; leave --live out, or drop them`,
    );
  }
  for (const arm of peers) {
    // A scenario on the OpenAI-compatible edge has its faults there (malformed arguments):
    // a peer on the Anthropic wire would never meet them, and would be ranked as if it had.
    const chatOnly =
      peerByArm(arm.name)?.api === 'openai-chat' ? [] : scenarios.filter((scenario) => scenario.api === 'openai-chat');
    if (chatOnly.length > 0) {
      throw UserInputError.single(
        '--arms',
        '',
        `arm '${arm.name}' speaks the Anthropic API, but ${chatOnly.map((scenario) => scenario.id).join(', ')} injects its faults (malformed arguments) on the OpenAI-compatible edge, which it would never meet; run those scenarios with our arms or peer:openai-agents`,
      );
    }
    if (peerByArm(arm.name)?.toolHistory === true) continue;
    const blocked = scenarios.filter((scenario) =>
      (scenario.history as ReadonlyArray<{ readonly content: unknown }>).some(
        (message) =>
          typeof message.content !== 'string' &&
          Array.isArray(message.content) &&
          message.content.some((block: { type?: string }) => block.type !== 'text'),
      ),
    );
    if (blocked.length > 0) {
      throw UserInputError.single(
        '--arms',
        '',
        `arm '${arm.name}' cannot replay the tool blocks in the history of ${blocked.map((scenario) => scenario.id).join(', ')}; use peer:anthropic-tool-runner or our arms there`,
      );
    }
  }
}
