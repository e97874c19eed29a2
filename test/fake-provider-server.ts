import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simulatedChatFetch } from '../src/model/openai/chat-endpoint.js';
import { simulatedFetch } from '../src/model/simulated/fetch-endpoint.js';
import { type SimulatedBatchesOptions, withSimulatedBatches } from '../src/model/batch/simulated-batches.js';
import { SimulatedModel } from '../src/model/simulated/simulated-model.js';
import { loadScenario } from '../src/scenarios/loader.js';

/** A request the fake provider received. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** performance.now() when it arrived and when it was answered. */
  readonly arrivedMs: number;
  answeredMs: number;
}

export interface FakeProviderOptions {
  /** The scenario whose task plan the stand-in model follows. */
  readonly scenario: string;
  /** Extra response headers for the n-th request (0-based), e.g. rate-limit headers. */
  readonly headers?: (n: number) => Readonly<Record<string, string>>;
  /** The Message Batches API's behaviour (it answers every request of a batch through the Messages endpoint). */
  readonly batches?: SimulatedBatchesOptions;
  /** Answer the n-th request with this instead of a completion. */
  readonly fail?: (
    n: number,
    request: ReceivedRequest,
  ) => { readonly status: number; readonly body: unknown } | undefined;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>`; the OpenAI-compatible API is under `/v1`. */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** The most requests that were open at once. */
  readonly maxOpen: () => number;
  close(): Promise<void>;
}

/**
 * A stand-in for a provider on loopback, at the root paths real servers use:
 * `POST /v1/chat/completions` (Ollama, vLLM, llama.cpp) and `POST /v1/messages`
 * (Anthropic). It answers with the simulated model, one fixed stream for every run: like
 * a real model, it sees only the request and knows nothing of seeds or guards.
 */
export async function startFakeProvider(options: FakeProviderOptions): Promise<FakeProvider> {
  const scenario = loadScenario(options.scenario);
  const model = new SimulatedModel({
    persona: scenario.persona,
    plan: scenario.plan,
    streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 1 },
  });
  const chat = simulatedChatFetch({ model });
  const messages = withSimulatedBatches(simulatedFetch(model), options.batches);
  const requests: ReceivedRequest[] = [];
  let open = 0;
  let maxOpen = 0;
  const server = createServer((request, response) => {
    const received: ReceivedRequest = {
      path: request.url ?? '',
      headers: request.headers,
      arrivedMs: performance.now(),
      answeredMs: 0,
    };
    const n = requests.push(received) - 1;
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const extra = options.headers?.(n) ?? {};
        const failure = options.fail?.(n, received);
        let status: number;
        let body: string;
        let headers: Record<string, string>;
        if (failure !== undefined) {
          status = failure.status;
          body = JSON.stringify(failure.body);
          headers = { 'content-type': 'application/json' };
        } else {
          const endpoint = received.path.endsWith('/chat/completions') ? chat : messages;
          const answer = await endpoint(`http://fake.local${received.path}`, {
            method: request.method ?? 'GET',
            body: Buffer.concat(chunks).toString('utf8'),
          });
          status = answer.status;
          body = await answer.text();
          headers = Object.fromEntries(answer.headers);
        }
        open -= 1;
        received.answeredMs = performance.now();
        response.writeHead(status, { ...headers, ...extra });
        response.end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    maxOpen: () => maxOpen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
