import { afterEach, describe, expect, it, vi } from 'vitest';
import { simulatedAgentEndpoint } from '../src/run/simulated-endpoint.js';
import { resolveArms, type Arm } from '../src/arms/arms.js';
import { sdkModel, type ModelSource } from '../src/run/model-source.js';
import { runOne } from '../src/arms/run-one.js';
import type { ModelFaultSource } from '../src/faults/model-faults.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import { contextWindowWith } from '../src/model/model-table.js';
import { simulatedFetch } from '../src/model/simulated/fetch-endpoint.js';
import { PrefixInterner } from '../src/model/simulated/prefix-interner.js';
import { SimulatedModel } from '../src/model/simulated/simulated-model.js';
import type { StreamKey } from '../src/random/streams.js';
import { loadScenario, type Scenario } from '../src/scenarios/loader.js';

/** One request an endpoint answered, with what it answered; `faulted` when a seeded fault answered it, not the model. */
interface Exchange {
  readonly url: string;
  readonly body: string;
  readonly status: number;
  readonly answer: string;
  readonly faulted: boolean;
}

const NO_FAULTS: ModelFaultSource = { next: () => null };

/** The run's faults, telling `exchanges` whether the request they let through met one. */
function watchedFaults(faults: ModelFaultSource, seen: { faulted: boolean }): ModelFaultSource {
  return {
    next(request) {
      const fault = faults.next(request);
      seen.faulted = fault !== null;
      return fault;
    },
  };
}

function recording(inner: typeof fetch, seen: { faulted: boolean }, exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    seen.faulted = false;
    const response = await inner(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const answer = await response.clone().text();
    exchanges.push({ url, body: String(init?.body), status: response.status, answer, faulted: seen.faulted });
    return response;
  };
}

/** The simulated model through the SDK and agents' endpoints, every exchange recorded with the endpoint's own key. */
function recordingSource(log: Map<StreamKey, Exchange[]>): ModelSource {
  const exchangesOf = (key: StreamKey): Exchange[] => {
    const exchanges: Exchange[] = [];
    log.set(key, exchanges);
    return exchanges;
  };
  return {
    ...sdkModel(),
    clientFor(scenario, key, faults) {
      const seen = { faulted: false };
      const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
      const fetch = simulatedFetch(model, watchedFaults(faults, seen), contextWindowWith(scenario.contextWindow));
      return new AnthropicModelClient({
        apiKey: 'sk-ant-simulated',
        fetch: recording(fetch, seen, exchangesOf(key)),
        baseURL: 'http://simulated.invalid',
        name: 'simulated-sdk',
      });
    },
    agentEndpoint(scenario, key, faults) {
      const seen = { faulted: false };
      const endpoint = simulatedAgentEndpoint(scenario, key, watchedFaults(faults, seen));
      return { ...endpoint, fetch: recording(endpoint.fetch, seen, exchangesOf(key)) };
    },
  };
}

/**
 * Each request answered again by a new endpoint and model, with nothing read before: its
 * message objects are new (parsed again), so no reading of an earlier request is resumed.
 */
async function answeredAfresh(scenario: Scenario, key: StreamKey, exchange: Exchange): Promise<[number, string]> {
  const endpoint = exchange.url.endsWith('/chat/completions')
    ? simulatedAgentEndpoint(scenario, key, NO_FAULTS).fetch
    : simulatedFetch(
        new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key }),
        NO_FAULTS,
        contextWindowWith(scenario.contextWindow),
      );
  const response = await endpoint(exchange.url, { method: 'POST', body: exchange.body });
  return [response.status, await response.text()];
}

const arm = (name: string): Arm => resolveArms([name])[0]!;

describe('the model reads a resent transcript incrementally, with the answers it gives reading it afresh', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // Rebuilt and compacted transcripts (all, context-pressure-spiral), a repaired history
  // (resumed-broken-history), Chat Completions (malformed-args, peers on OpenAI's API).
  const cells: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['fetch-transform-write', ['none', 'article', 'all', 'peer:vercel-ai', 'peer:openai-agents']],
    ['context-pressure-spiral', ['none', 'all']],
    ['resumed-broken-history', ['all']],
    ['malformed-args', ['none']],
    // Instructions in tool answers, marked outputs and withheld ones: read from the request alone.
    ['inbox-injection', ['none', 'isolate', 'all']],
    ['research-injection', ['none', 'isolate', 'detect']],
    ['wrong-customer-refund', ['none', 'contracts']],
  ];

  it.each(cells)('%s: every answer over seeded runs is the answer to the request read afresh', async (id, arms) => {
    const scenario = loadScenario(id);
    const adopt = vi.spyOn(PrefixInterner.prototype, 'adopt');
    const log = new Map<StreamKey, Exchange[]>();
    const source = recordingSource(log);
    for (const name of arms)
      for (let seed = 1; seed <= 8; seed++)
        await runOne({ sweepSeed: 0, scenario, arm: arm(name), seed, model: source });

    let compared = 0;
    for (const [key, exchanges] of log) {
      for (const exchange of exchanges) {
        if (exchange.faulted) continue;
        const [status, answer] = await answeredAfresh(scenario, key, exchange);
        expect({ status, answer }).toEqual({ status: exchange.status, answer: exchange.answer });
        compared += 1;
      }
    }
    // The runs went on long enough for readings to be resumed, and fresh ones to be needed.
    const shared = adopt.mock.results.map((result) => result.value as number);
    expect(compared).toBeGreaterThan(40);
    expect(shared.filter((count) => count >= 3).length).toBeGreaterThan(compared / 2);
  });
});
