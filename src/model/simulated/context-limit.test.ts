import { ContentTooLargeError } from '@anthropic-ai/sdk/core/error';
import { describe, expect, it } from 'vitest';
import { scriptedModelFaults } from '../../faults/model-faults.js';
import { loadScenario } from '../../scenarios/loader.js';
import { AnthropicModelClient } from '../anthropic-client.js';
import { FaultyModel } from '../faulty-model.js';
import type { ModelClient, ModelRequest } from '../model-client.js';
import { requestTokens } from '../token-estimate.js';
import { contextLimitResponse } from './context-limit.js';
import { simulatedFetch } from './fetch-endpoint.js';
import { SimulatedModel } from './simulated-model.js';

const scenario = loadScenario('long-research');
const simulated = () =>
  new SimulatedModel({
    persona: scenario.persona,
    plan: scenario.plan,
    streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 1 },
  });
const request: ModelRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  system: scenario.system,
  messages: [{ role: 'user', content: scenario.prompt }],
  tools: scenario.tools.map((tool) => tool.definition),
};
const size = requestTokens(request);

const clients: ReadonlyArray<readonly [string, (window: number) => ModelClient]> = [
  ['in-process', (window) => new FaultyModel(simulated(), scriptedModelFaults([]), { contextWindow: () => window })],
  [
    'through the Anthropic SDK',
    (window) =>
      new AnthropicModelClient({
        apiKey: 'sk-test',
        fetch: simulatedFetch(simulated(), scriptedModelFaults([]), () => window),
        baseURL: 'http://simulated.invalid',
      }),
  ],
];

describe('the context window at the simulated endpoint', () => {
  it('answers a request whose estimate fits, up to the last token', () => {
    expect(contextLimitResponse(request, size)).toBeNull();
    expect(contextLimitResponse(request, size - 1)).toMatchObject({
      kind: 'http',
      status: 413,
      body: { error: { type: 'request_too_large' } },
    });
  });

  it.each(clients)(
    'refuses a request over the window with a 413 ContentTooLargeError %s, naming the sizes',
    async (_, client) => {
      await expect(client(size).create(request)).resolves.toMatchObject({ role: 'assistant' });
      const refused = await client(size - 1)
        .create(request)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ContentTooLargeError);
      expect(refused).toMatchObject({
        status: 413,
        error: {
          error: {
            type: 'request_too_large',
            message: `prompt is too long: ${size} tokens > ${size - 1} maximum for claude-sonnet-5-5`,
          },
        },
      });
    },
  );
});
