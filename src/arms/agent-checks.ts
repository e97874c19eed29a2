import type { AgentDefinition } from '../agents/define-agent.js';
import { peerByArm } from '../peers/peer-registry.js';
import type { Scenario } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from './arms.js';
import type { ModelSource } from '../run/model-source.js';

/** What a sweep check needs to know of an agent arm. */
interface AgentTraits {
  readonly api: 'anthropic' | 'openai-chat';
  /** Whether it can take a scenario history with tool blocks in it. */
  readonly toolHistory: boolean;
}

/**
 * Refuses, before anything runs, a sweep an agent arm (a built-in peer or a user's agent)
 * cannot take part in: a real model for a built-in peer (they are compared on the
 * simulated faults), a real server of an API the agent does not speak, live mode, a
 * streamed sweep, an `api: openai-chat` scenario for an agent on the Anthropic API (its
 * reply faults would never reach the agent), or a scenario whose history has tool blocks
 * that a built-in agent cannot replay in its own message types. A user's agent gets the
 * history as Anthropic messages, tool blocks and all: what it makes of them is its own.
 */
export function checkAgentSweep(
  arms: readonly Arm[],
  scenarios: readonly Scenario[],
  model: ModelSource,
  options: { readonly stream?: boolean; readonly agents?: ReadonlyMap<string, AgentDefinition> } = {},
): void {
  const peers = arms.filter((arm) => arm.peer !== undefined || arm.agent !== undefined);
  if (peers.length === 0) return;
  const traits = (arm: Arm): AgentTraits => {
    const peer = peerByArm(arm.name);
    if (peer !== undefined) return peer;
    return { api: options.agents?.get(arm.name)?.api ?? 'anthropic', toolHistory: true };
  };
  if (options.stream === true) {
    throw UserInputError.single(
      '--stream',
      '',
      `agent arms (${peers.map((arm) => arm.name).join(', ')}) run unstreamed, in their own way; leave --stream out, or drop them`,
    );
  }
  const builtIn = peers.filter((arm) => arm.peer !== undefined);
  if (model.kind === 'real' && builtIn.length > 0) {
    throw UserInputError.single(
      '--arms',
      '',
      `agent arms (${builtIn.map((arm) => arm.name).join(', ')}) run against the simulated model only; leave --model out, or drop them`,
    );
  }
  if (model.kind === 'live') {
    // An agent drives its own in-process client and tools: it would run virtually inside a sweep labelled live.
    throw UserInputError.single(
      '--arms',
      '',
      `agent arms (${peers.map((arm) => arm.name).join(', ')}) do not run live yet; leave --live out, or drop them`,
    );
  }
  for (const arm of peers) {
    // A real server speaks one API: an agent on the other would reach nothing.
    const api = traits(arm).api;
    if (!model.agentApis.includes(api))
      throw UserInputError.single(
        '--arms',
        '',
        `arm '${arm.name}' speaks the ${api === 'anthropic' ? 'Anthropic' : 'OpenAI Chat Completions'} API, which ${model.name} does not serve; use a model of that API, or drop the arm`,
      );
  }
  for (const arm of peers) {
    // A scenario on the OpenAI-compatible edge has its faults there (malformed arguments):
    // an agent on the Anthropic wire would never meet them, and would be ranked as if it had.
    const chatOnly =
      traits(arm).api === 'openai-chat' ? [] : scenarios.filter((scenario) => scenario.api === 'openai-chat');
    if (chatOnly.length > 0) {
      throw UserInputError.single(
        '--arms',
        '',
        `arm '${arm.name}' speaks the Anthropic API, but ${chatOnly.map((scenario) => scenario.id).join(', ')} injects its faults (malformed arguments) on the OpenAI-compatible edge, which it would never meet; run those scenarios with our arms, peer:openai-agents, or an agent defined with api: 'openai-chat'`,
      );
    }
    if (traits(arm).toolHistory) continue;
    // Every task's history: a dataset's rows may each bring their own.
    const histories = (scenario: Scenario) =>
      scenario.dataset === null ? [scenario.history] : scenario.dataset.tasks.map((task) => task.fields.history);
    const blocked = scenarios.filter((scenario) =>
      histories(scenario).some((history) =>
        (history as ReadonlyArray<{ readonly content: unknown }>).some(
          (message) =>
            typeof message.content !== 'string' &&
            Array.isArray(message.content) &&
            message.content.some((block: { type?: string }) => block.type !== 'text'),
        ),
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
