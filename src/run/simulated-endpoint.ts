import type { ModelFaultSource } from '../faults/model-faults.js';
import { MalformedArguments } from '../faults/malformed-arguments.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { contextWindowWith } from '../model/model-table.js';
import { simulatedChatFetch } from '../model/openai/chat-endpoint.js';
import { simulatedFetch } from '../model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../model/simulated/simulated-model.js';
import { PromptCache } from '../model/prompt-cache.js';
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';

/** Where an agent's clients send requests: hosts the run's fetch answers for. */
export interface AgentBaseURLs {
  /** For `new Anthropic({ baseURL })` (the SDK appends `/v1/messages`). */
  readonly anthropic: string;
  /** For `new OpenAI({ baseURL })` (the SDK appends `/chat/completions`). */
  readonly openai: string;
}

/** The run's model as an agent reaches it: one fetch, the hosts it answers for, and what requests name. */
export interface AgentEndpoint {
  /** Unmetered: the run meters it. */
  readonly fetch: typeof fetch;
  readonly baseURL: AgentBaseURLs;
  readonly modelId: string;
  /** What records call the model; absent for the simulated model (then the agent's API names it). */
  readonly label?: string;
  /** Scrubs an error that ended the run before its record keeps it (a real model's secrets). */
  readonly scrub?: (error: unknown) => unknown;
}

/** Hosts nothing listens on: the fetch answers every request itself, so nothing leaves the process. */
export const SIMULATED_BASE_URLS: AgentBaseURLs = {
  anthropic: 'http://simulated.invalid',
  openai: 'http://simulated.invalid/v1',
};

/**
 * The scenario's simulated model behind its seeded model faults, on both edges: Chat
 * Completions for a path ending in `/chat/completions` (with the scenario's reply faults,
 * malformed arguments, there only), the Messages API for any other. Both serve the same
 * model and the same fault stream, so one run is one conversation whichever client an
 * agent uses. With the run's clock, the Messages edge keeps the run's prompt cache.
 */
export function simulatedAgentEndpoint(
  scenario: Scenario,
  key: StreamKey,
  faults: ModelFaultSource,
  clock?: VirtualClock,
): AgentEndpoint {
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  const cache = clock === undefined ? undefined : new PromptCache(() => clock.now());
  const messages = simulatedFetch(model, faults, contextWindowWith(scenario.contextWindow), cache);
  const chat = simulatedChatFetch({
    model,
    faults,
    malformed: new MalformedArguments(scenario.replyFaults.malformed_arguments, key),
  });
  return {
    fetch: (input, init) => (pathOf(input).endsWith('/chat/completions') ? chat : messages)(input, init),
    baseURL: SIMULATED_BASE_URLS,
    modelId: DEFAULT_MODEL_ID,
  };
}

function pathOf(input: Parameters<typeof fetch>[0]): string {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(url).pathname;
}
