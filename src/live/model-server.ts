import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { VirtualClock } from '../clock/virtual-clock.js';
import { listenBaseUrl } from './listen-base-url.js';
import { MalformedArguments } from '../faults/malformed-arguments.js';
import { ModelFaultInjector, type ModelFaultKind, type ModelFaultSource } from '../faults/model-faults.js';
import { simulatedChatFetch } from '../model/openai/chat-endpoint.js';
import { contextWindowWith } from '../model/model-table.js';
import { simulatedFetch } from '../model/simulated/fetch-endpoint.js';
import { PromptCache } from '../model/prompt-cache.js';
import { withSimulatedBatches } from '../model/batch/simulated-batches.js';
import { SimulatedModel } from '../model/simulated/simulated-model.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import type { StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';

export interface ModelServerOptions {
  readonly scenario: Scenario;
  /** @default 0 */
  readonly sweepSeed?: number;
  /** Inject the scenario's model faults (and, on the chat path, its malformed arguments). @default false */
  readonly faults?: boolean;
  /** Time for the fault injector; a live server has no virtual time of its own. */
  readonly clock: VirtualClock;
  /** @default 127.0.0.1 */
  readonly host?: string;
  /** 0 picks a free port. @default 0 */
  readonly port?: number;
  /**
   * A model timeout fault holds the connection open without answering, up to this many
   * real ms, so the client's own timeout fires (live mode); without it the connection is
   * dropped at once, as a connection error. @default undefined (drop at once)
   */
  readonly holdTimeoutsMs?: number;
}

/**
 * The path prefix that names the run a request belongs to: `/runs/<seed>`, so a client
 * points its base URL at `http://host:port/runs/7` (Anthropic SDK) or
 * `http://host:port/runs/7/v1` (openai). The simulated model's stream is keyed by it.
 * `/runs/<seed>~<tag>` is the same seed with fault state of its own: a second run of a
 * seed (another arm, a repeat) must meet its faults from the first attempt again, as an
 * in-process run does, not carry on where the last run's attempt counts stopped.
 */
const RUN_PATH = /^\/runs\/(\d+)(?:~([\w.-]+))?(\/.*)$/;

interface RunEndpoints {
  readonly messages: typeof fetch;
  readonly chat: typeof fetch;
  readonly faults: ModelFaultInjector | undefined;
  /** The kind of the fault the last request met (requests of one run come one at a time). */
  lastFault: ModelFaultKind | null;
}

/**
 * The simulated model served over real HTTP on loopback: `POST /runs/<seed>/v1/messages`
 * (Anthropic Messages) and `POST /runs/<seed>/v1/chat/completions` (OpenAI Chat
 * Completions), answered by the same endpoint functions the in-process SDK paths use, so
 * a real client over a real socket gets the same replies. A fault that drops the
 * connection destroys the socket. One scenario per server; each seed (and `~tag`) keeps
 * its own fault state (attempt counts); `GET /runs/<seed>[~tag]/faults` reads its counts
 * and `DELETE /runs/<seed>[~tag]/` forgets the run.
 */
export class ModelServer {
  readonly #options: ModelServerOptions;
  readonly #runs = new Map<string, RunEndpoints>();
  readonly #server: Server;

  constructor(options: ModelServerOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
      });
    });
  }

  /** Starts listening; resolves to the base URL (`http://127.0.0.1:<port>`). */
  listen(): Promise<string> {
    return listenBaseUrl(this.#server, this.#options.host ?? '127.0.0.1', this.#options.port ?? 0);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #endpoints(seed: number, tag: string): RunEndpoints {
    const id = `${seed}~${tag}`;
    let endpoints = this.#runs.get(id);
    if (endpoints === undefined) {
      const { clock } = this.#options;
      // A dataset scenario's run plays its seed's task: that task's plan.
      const scenario = scenarioForSeed(this.#options.scenario, seed);
      const key: StreamKey = { sweepSeed: this.#options.sweepSeed ?? 0, scenario: scenario.id, runSeed: seed };
      const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
      const injector =
        this.#options.faults === true ? new ModelFaultInjector(scenario.modelFaults, key, clock) : undefined;
      const faults: ModelFaultSource | undefined =
        injector === undefined
          ? undefined
          : {
              next(request) {
                const fault = injector.next(request);
                if (endpoints !== undefined) endpoints.lastFault = fault?.kind ?? null;
                return fault;
              },
            };
      const malformed =
        this.#options.faults === true
          ? new MalformedArguments(scenario.replyFaults.malformed_arguments, key)
          : undefined;
      endpoints = {
        // The scenario's context window, as an in-process run checks it, so a live run meets the same 413s.
        // With the Message Batches API in front: a batch's requests meet this run's model, faults and cache.
        messages: withSimulatedBatches(
          simulatedFetch(model, faults, contextWindowWith(scenario.contextWindow), new PromptCache(() => clock.now())),
        ),
        chat: simulatedChatFetch({
          model,
          ...(faults === undefined ? {} : { faults }),
          ...(malformed === undefined ? {} : { malformed }),
        }),
        faults: injector,
        lastFault: null,
      };
      this.#runs.set(id, endpoints);
    }
    return endpoints;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const match = RUN_PATH.exec(request.url ?? '');
    if (match === null) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: {
            type: 'not_found_error',
            message: 'use /runs/<seed>/v1/messages or /runs/<seed>/v1/chat/completions',
          },
        }),
      );
      return;
    }
    const [, seed = '0', tag = '', path = '/'] = match;
    if (request.method === 'DELETE' && path === '/') {
      // A finished run's state, freed: a long live sweep opens one per run.
      const known = this.#runs.delete(`${Number(seed)}~${tag}`);
      response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ deleted: known }));
      return;
    }
    const endpoints = this.#endpoints(Number(seed), tag);
    if (request.method === 'GET' && path === '/faults') {
      // The model faults this run's endpoint injected so far, for a live run's record.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(endpoints.faults?.counts ?? null));
      return;
    }
    const endpoint = path.endsWith('/chat/completions') ? endpoints.chat : endpoints.messages;
    let answer: Response;
    try {
      answer = await endpoint(`http://model.local${path}`, {
        method: request.method ?? 'GET',
        body: Buffer.concat(chunks).toString('utf8'),
      });
    } catch {
      // The endpoint's way of saying the connection dropped or timed out. A timeout, when
      // asked, hangs until the client gives up (its timeout fires, as against a stuck API).
      const hold = this.#options.holdTimeoutsMs;
      if (endpoints.lastFault === 'timeout' && hold !== undefined) {
        const timer = setTimeout(() => request.socket.destroy(), hold);
        timer.unref();
        request.socket.once('close', () => clearTimeout(timer));
        return;
      }
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    // A streamed reply goes out frame by frame, as the API sends it (docs/streaming.md).
    if (answer.body !== null && answer.headers.get('content-type') === 'text/event-stream') {
      for await (const chunk of answer.body) response.write(chunk);
      response.end();
      return;
    }
    response.end(await answer.text());
  }
}
