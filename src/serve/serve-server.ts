import { listenBaseUrl } from '../live/listen-base-url.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { MAX_TOKENS } from '../agents/run-agent.js';
import type { RunRecord } from '../bench/run-record.js';
import { answerMcp } from './mcp-run-server.js';
import { runEnding } from './run-ending-body.js';
import type { ServedRun } from './served-run.js';
import type { ServedSweep } from './served-sweep.js';
import { ServeRefusal } from './serve-refusal.js';

export interface ServeServerOptions {
  readonly sweep: ServedSweep;
  /** @default 127.0.0.1 */
  readonly host?: string;
  /** 0 picks a free port. @default 0 */
  readonly port?: number;
  /** Hears every request that reaches a run (the idle watch restarts that run's wait). */
  readonly onActivity?: (run: ServedRun) => void;
  /** Hears each run as the agent starts it. */
  readonly onStarted?: (run: ServedRun) => void;
  /** Hears each run as the agent ends it, after its record is written. */
  readonly onEnded?: (run: ServedRun, record: RunRecord) => void;
}

/** The URLs of a served sweep, `{run_id}` standing for a run's id: what `serve` prints as it starts. */
export interface ServeUrls {
  readonly url: string;
  readonly start_run: string;
  readonly end_run: string;
  readonly anthropic_base_url: string;
  readonly openai_base_url: string;
  readonly mcp_url: string;
}

/** The largest request body taken: a conversation, not a file upload. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const RUN_PATH = /^\/runs\/([^/]+)(\/.*)?$/;

/**
 * `spiralbench serve`'s HTTP side, on loopback: the run API (`POST /runs`, `POST
 * /runs/<id>/end`), each run's simulated model as the Anthropic Messages API
 * (`/runs/<id>/v1/messages`) and OpenAI Chat Completions (`/runs/<id>/v1/chat/completions`),
 * and its tools as an MCP server (`/runs/<id>/mcp`, Streamable HTTP). The agent's
 * credentials (Authorization, x-api-key) are never read: only request bodies cross into
 * a run, and no answer repeats a header.
 *
 * @example
 * const server = new ServeServer({ sweep });
 * const base = await server.listen(); // http://127.0.0.1:40123
 */
export class ServeServer {
  readonly #options: ServeServerOptions;
  readonly #server: Server;
  #base = '';

  constructor(options: ServeServerOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        const refusal =
          error instanceof ServeRefusal
            ? error
            : new ServeRefusal(500, 'api_error', `spiralbench serve: ${String(error)}`);
        if (response.headersSent) {
          response.destroy();
          return;
        }
        response.writeHead(refusal.status, { 'content-type': 'application/json' });
        response.end(refusal.body());
      });
    });
  }

  /** Starts listening; resolves to the base URL (`http://127.0.0.1:<port>`). */
  async listen(): Promise<string> {
    this.#base = await listenBaseUrl(this.#server, this.#options.host ?? '127.0.0.1', this.#options.port ?? 0);
    return this.#base;
  }

  urls(): ServeUrls {
    return serveUrls(this.#base);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeIdleConnections();
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://serve.local').pathname;
    const method = request.method ?? 'GET';
    const { sweep } = this.#options;
    if (path === '/' && method === 'GET') return json(response, 200, this.#about());
    if (path === '/runs' && method === 'POST') {
      const run = sweep.start(seedOf(body));
      this.#options.onStarted?.(run);
      return json(response, 201, this.#started(run));
    }
    const match = RUN_PATH.exec(path);
    if (match === null)
      throw new ServeRefusal(404, 'not_found_error', `no route ${method} ${path}; GET / describes the run API`);
    const [, id = '', rest = '/'] = match;
    const run = sweep.run(runIdOf(id));
    this.#options.onActivity?.(run);
    if (rest === '/end' && method === 'POST') {
      const record = sweep.end(run.id, { returned: runEnding(body) });
      this.#options.onEnded?.(run, record);
      return json(response, 200, record);
    }
    if (rest === '/mcp' && method !== 'POST') {
      // Stateless: no server-sent stream to open (GET) and no session to close (DELETE).
      response.writeHead(405, { 'content-type': 'application/json', allow: 'POST' });
      response.end(new ServeRefusal(405, 'method_not_allowed', 'this MCP endpoint is stateless: POST only').body());
      return;
    }
    if (rest === '/mcp') return answerMcp(run, request, response, mcpBody(body));
    if (method === 'POST' && (rest === '/v1/messages' || rest === '/v1/chat/completions'))
      return answerModel(run, rest, body, request, response);
    throw new ServeRefusal(404, 'not_found_error', `no route ${method} /runs/${id}${rest}; see GET /`);
  }

  #about(): unknown {
    const { sweep } = this.#options;
    const { source, arm, seeds } = sweep.options;
    return {
      spiralbench: 'serve',
      scenario: source.scenario.id,
      arm,
      seeds: { first: seeds.base, count: seeds.count },
      ended: sweep.ended,
      in_flight: sweep.inFlight().map((run) => run.id),
      ...this.urls(),
    };
  }

  #started(run: ServedRun): unknown {
    const { scenario, endpoint, openingMessages, host } = run.session;
    const base = `${this.#base}/runs/${run.id}`;
    return {
      run_id: run.id,
      seed: run.seed,
      scenario: scenario.id,
      system: scenario.system,
      prompt: scenario.prompt,
      messages: openingMessages,
      tools: host.definitions,
      model: endpoint.modelId,
      max_tokens: MAX_TOKENS,
      anthropic_base_url: base,
      openai_base_url: `${base}/v1`,
      mcp_url: `${base}/mcp`,
      end_url: `${base}/end`,
    };
  }
}

/** The URL templates of a server at `base`. */
export function serveUrls(base: string): ServeUrls {
  const run = `${base}/runs/{run_id}`;
  return {
    url: base,
    start_run: `POST ${base}/runs`,
    end_run: `POST ${run}/end`,
    anthropic_base_url: run,
    openai_base_url: `${run}/v1`,
    mcp_url: `${run}/mcp`,
  };
}

/** A model call through the run's metered endpoint; a fault that drops the connection drops the socket. */
async function answerModel(
  run: ServedRun,
  path: string,
  body: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (asksToStream(body))
    throw new ServeRefusal(
      400,
      'invalid_request_error',
      'stream: serve answers whole replies only (the run is metered from them); send the request without "stream": true',
    );
  let answer: Response;
  try {
    answer = await run.callModel(path, body);
  } catch (error) {
    if (error instanceof ServeRefusal) throw error;
    request.socket.destroy();
    return;
  }
  const text = await answer.text();
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(text);
}

/** Whether a model request asks for a streamed reply; a body that is not JSON is the endpoint's to refuse. */
function asksToStream(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { readonly stream?: unknown } | null;
    return typeof parsed === 'object' && parsed !== null && parsed.stream === true;
  } catch {
    return false;
  }
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/** `POST /runs`'s optional `{"seed": n}`. */
function seedOf(body: string): number | undefined {
  if (body.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ServeRefusal(
      400,
      'invalid_request_error',
      'the body is not JSON; send {"seed": <n>} or nothing for the next seed',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ServeRefusal(400, 'invalid_request_error', 'the body must be an object: {"seed": <n>}, or empty');
  const { seed, ...rest } = parsed as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new ServeRefusal(400, 'invalid_request_error', `${unknown}: not a field of POST /runs; it takes only "seed"`);
  if (seed === undefined || seed === null) return undefined;
  if (typeof seed !== 'number' || !Number.isInteger(seed))
    throw new ServeRefusal(
      400,
      'invalid_request_error',
      // String, not JSON.stringify: a number too large for a double parses as Infinity, which JSON writes as null.
      `seed: expected a whole number, got ${typeof seed === 'number' ? String(seed) : JSON.stringify(seed)}`,
    );
  // A negative seed is a whole number outside the sweep: the sweep refuses it with its range.
  return seed;
}

/** The run id in a path; one that is not valid percent-encoding names no run. */
function runIdOf(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new ServeRefusal(404, 'unknown_run', `no run '${encoded}' in this sweep; start one with POST /runs`);
  }
}

function mcpBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    // The transport answers a body that is not JSON-RPC with its own parse error.
    return body;
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new ServeRefusal(413, 'request_too_large', `the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
