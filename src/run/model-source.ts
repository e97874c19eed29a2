import type { AgentEndpoint } from './simulated-endpoint.js';
import { simulatedAgentEndpoint } from './simulated-endpoint.js';
import { MalformedArguments } from '../faults/malformed-arguments.js';
import type { ModelFaultInjector } from '../faults/model-faults.js';
import { FaultyModel } from '../model/faulty-model.js';
import { CachingModel } from '../model/caching-model.js';
import { type SpendLimit, SpendLimitedModel } from '../model/spend-limit.js';
import { PromptCache } from '../model/prompt-cache.js';
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { ModelClient } from '../model/model-client.js';
import { contextWindowWith } from '../model/model-table.js';
import { SimulatedChatModel } from '../model/openai/simulated-chat.js';
import { simulatedFetch } from '../model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../model/simulated/simulated-model.js';
import type { StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import type { LiveSession } from './live-session.js';

/**
 * Where a sweep's model replies come from, decided once from the flags: its traits, read
 * by the sweep (may runs go to worker threads? how many at once? what do results call
 * it?), and the run's model for our loop or for an agent.
 */
export interface ModelSource {
  /** What results call the model (summary.json's `model`; a record names the client that served it). */
  readonly name: string;
  /**
   * The seeded simulated model on the virtual clock, a real model (wall-clock, paid, not
   * reproducible), or the simulated model over loopback sockets in real time.
   */
  readonly kind: 'simulated' | 'real' | 'live';
  /**
   * What a pool worker rebuilds this source from (a sweep definition's `model`), or null
   * when runs stay in this thread: a client and sockets do not cross threads.
   */
  readonly portable: 'simulated' | 'simulated-sdk' | null;
  /** Runs in flight at once in this thread, for a source that is not portable (they wait on the network). @default 1 */
  readonly concurrency: number;
  /** Served through an SDK client over a fetch: a replay of its runs says `--via sdk`. */
  readonly viaSdk: boolean;
  /** The model id requests name (its context window and prices apply); undefined: the loop's own default. */
  readonly modelId: string | undefined;
  /** Live mode's session: its runs get their tools, clock and model from it. */
  readonly live?: LiveSession;
  /** The run's model for our loop; synchronous when nothing has to be loaded (the in-process fast path). */
  clientFor(
    scenario: Scenario,
    key: StreamKey,
    faults: ModelFaultInjector,
    clock: VirtualClock,
    /** The run's arm: with the key, what names the run (a batch's custom ids). */
    arm?: string,
  ): ModelClient | Promise<ModelClient>;
  /** The APIs an agent may speak to this source (a real server speaks one; live mode serves agents none yet). */
  readonly agentApis: ReadonlyArray<'anthropic' | 'openai-chat'>;
  /** The run's model for an agent's own clients, or undefined where agents cannot run (live mode). */
  agentEndpoint(
    scenario: Scenario,
    key: StreamKey,
    faults: ModelFaultInjector,
    clock: VirtualClock,
  ): AgentEndpoint | undefined;
  /** Lets go of what the source holds (live mode's servers). */
  close(): Promise<void>;
}

const nothingToClose = async (): Promise<void> => {};

/** The simulated model answers both APIs, each with its own edge's faults. */
const BOTH_APIS = ['anthropic', 'openai-chat'] as const;

/**
 * The simulated model in-process (the fast path): behind the scenario's model faults and
 * the API's request checks, or, for a scenario on `api: openai-chat`, through the
 * OpenAI-compatible edge (arguments as text, some written malformed). Agents reach the
 * same model over its HTTP endpoints.
 *
 * @example
 * await runOne({ sweepSeed: 0, scenario, arm, seed: 1, model: inProcessModel() });
 */
export function inProcessModel(modelId?: string): ModelSource {
  return Object.freeze({
    name: 'simulated',
    kind: 'simulated',
    portable: 'simulated',
    concurrency: 1,
    viaSdk: false,
    modelId,
    clientFor: simulatedClient,
    agentApis: BOTH_APIS,
    agentEndpoint: simulatedAgentEndpoint,
    close: nothingToClose,
  } as const);
}

/** The in-process simulated model of one run, behind its model faults (and, on `api: openai-chat`, its reply faults). */
export function simulatedClient(
  scenario: Scenario,
  key: StreamKey,
  faults: ModelFaultInjector,
  clock: VirtualClock,
): ModelClient {
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  if (scenario.api === 'openai-chat')
    return new SimulatedChatModel({
      model,
      faults,
      malformed: new MalformedArguments(scenario.replyFaults.malformed_arguments, key),
    });
  const cached = new CachingModel(model, new PromptCache(() => clock.now()));
  return new FaultyModel(cached, faults, { contextWindow: contextWindowWith(scenario.contextWindow) });
}

/**
 * The same simulated model at the HTTP endpoint a real SDK client calls through a custom
 * fetch (`--via sdk`): `@anthropic-ai/sdk`, or `openai` for a scenario on `api:
 * openai-chat`, so the SDK's own request building, parsing and error classes are
 * exercised. Its runs give the in-process runs' results.
 *
 * @example
 * await runOne({ sweepSeed: 0, scenario, arm, seed: 1, model: sdkModel() });
 */
export function sdkModel(): ModelSource {
  return Object.freeze({
    name: 'simulated-sdk',
    kind: 'simulated',
    portable: 'simulated-sdk',
    concurrency: 1,
    viaSdk: true,
    modelId: undefined,
    clientFor: sdkClient,
    agentApis: BOTH_APIS,
    agentEndpoint: simulatedAgentEndpoint,
    close: nothingToClose,
  } as const);
}

async function sdkClient(
  scenario: Scenario,
  key: StreamKey,
  faults: ModelFaultInjector,
  clock: VirtualClock,
): Promise<ModelClient> {
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  if (scenario.api === 'openai-chat') {
    const chat = { model, faults, malformed: new MalformedArguments(scenario.replyFaults.malformed_arguments, key) };
    // Loaded on demand, like the Anthropic SDK below: in-process sweeps never need it.
    const [{ OpenAICompatibleModelClient }, { simulatedChatFetch }] = await Promise.all([
      import('../model/openai/openai-compatible-client.js'),
      import('../model/openai/chat-endpoint.js'),
    ]);
    return new OpenAICompatibleModelClient({
      apiKey: 'sk-simulated',
      fetch: simulatedChatFetch(chat),
      baseURL: 'http://simulated.invalid/v1',
      name: 'simulated-openai-sdk',
    });
  }
  // Loaded on demand: the SDK costs ~0.3 s of start-up that in-process sweeps never need.
  const { AnthropicModelClient } = await import('../model/anthropic-client.js');
  return new AnthropicModelClient({
    apiKey: 'sk-ant-simulated',
    fetch: simulatedFetch(model, faults, contextWindowWith(scenario.contextWindow), new PromptCache(() => clock.now())),
    baseURL: 'http://simulated.invalid',
    name: 'simulated-sdk',
  });
}

/**
 * A model client of your own (real Claude, an OpenAI-compatible server, a scripted
 * model): it meets no injected model faults, only its own. Its runs stay in this thread,
 * `concurrency` at a time. With `agents`, agent arms reach the same server through it.
 *
 * @example
 * await runOne({ sweepSeed: 0, scenario, arm, seed: 1, model: clientModel(client, 'claude-haiku-4-5') });
 */
export function clientModel(
  client: ModelClient | { readonly name: string; readonly forRun: (run: string) => ModelClient },
  modelId: string,
  concurrency = 1,
  agents?: AgentEndpoint & { readonly api: 'anthropic' | 'openai-chat' },
): ModelSource {
  return Object.freeze({
    name: client.name,
    kind: 'real',
    portable: null,
    concurrency,
    viaSdk: false,
    modelId,
    // A client per run where the source names its runs (a batching model's custom ids).
    clientFor:
      'forRun' in client
        ? (_scenario: Scenario, key: StreamKey, _faults: ModelFaultInjector, _clock: VirtualClock, arm?: string) =>
            client.forRun(`${key.sweepSeed}/${key.scenario}/${arm ?? ''}/${key.runSeed}`)
        : () => client,
    agentApis: agents === undefined ? [] : [agents.api],
    // One server for every run: a real model meets no injected faults, only its own.
    agentEndpoint: () => agents,
    close: nothingToClose,
  } as const);
}

/** Live mode (docs/live.md): tools and the simulated model over HTTP on loopback, in real time, one run at a time. */
export function liveModel(session: LiveSession): ModelSource {
  return Object.freeze({
    name: 'simulated-live-http',
    kind: 'live',
    portable: null,
    concurrency: 1,
    viaSdk: false,
    modelId: undefined,
    live: session,
    clientFor(): never {
      throw new Error('a live run takes its model from its session (LiveSession.run)');
    },
    agentApis: [],
    agentEndpoint: () => undefined,
    close: () => session.close(),
  } as const);
}

/** The source a pool worker rebuilds from a sweep definition's `model`. */
export function portableModel(kind: 'simulated' | 'simulated-sdk'): ModelSource {
  return kind === 'simulated' ? inProcessModel() : sdkModel();
}

/**
 * `source` with every run's client charging `limit` and refusing calls once it is reached
 * (`run --max-cost`). Agents reach the model through their own clients: their runs are
 * charged from their records, between runs.
 */
export function withSpendLimit(source: ModelSource, limit: SpendLimit): ModelSource {
  return Object.freeze({
    ...source,
    clientFor(scenario: Scenario, key: StreamKey, faults: ModelFaultInjector, clock: VirtualClock, arm?: string) {
      const made = source.clientFor(scenario, key, faults, clock, arm);
      return made instanceof Promise
        ? made.then((client) => new SpendLimitedModel(client, limit))
        : new SpendLimitedModel(made, limit);
    },
  });
}
