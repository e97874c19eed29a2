import { peerByArm } from '../peers/peer-registry.js';
import type { Scenario } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from './arms.js';
import type { ModelChoice } from './run-one.js';

/**
 * Refuses, before anything runs, a sweep a peer arm cannot take part in: a real model
 * (peers drive the simulated endpoint only), or a scenario whose history has tool blocks
 * that the peer cannot replay in its own message types.
 */
export function checkPeerSweep(arms: readonly Arm[], scenarios: readonly Scenario[], model: ModelChoice): void {
  const peers = arms.filter((arm) => arm.peer !== undefined);
  if (peers.length === 0) return;
  if (model.kind === 'client') {
    throw UserInputError.single('--arms', '', `peer arms (${peers.map((arm) => arm.name).join(', ')}) run against the simulated model only; leave --model out, or drop them`);
  }
  if (model.kind === 'live') {
    // A peer drives its own in-process client and tools: it would run virtually inside a sweep labelled live.
    throw UserInputError.single('--arms', '', `peer arms (${peers.map((arm) => arm.name).join(', ')}) do not run live yet; leave --live out, or drop them`);
  }
  for (const arm of peers) {
    if (peerByArm(arm.name)?.toolHistory === true) continue;
    const blocked = scenarios.filter((scenario) => (scenario.history as ReadonlyArray<{ readonly content: unknown }>).some((message) => typeof message.content !== 'string' && Array.isArray(message.content) && message.content.some((block: { type?: string }) => block.type !== 'text')));
    if (blocked.length > 0) {
      throw UserInputError.single('--arms', '', `arm '${arm.name}' cannot replay the tool blocks in the history of ${blocked.map((scenario) => scenario.id).join(', ')}; use peer:anthropic-tool-runner or our arms there`);
    }
  }
}
