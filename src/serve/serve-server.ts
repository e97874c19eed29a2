import { createHash } from 'node:crypto';
import { listenBaseUrl } from '../live/listen-base-url.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { MAX_TOKENS } from '../agents/run-agent.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { McpSweepServer } from './mcp-sweep-server.js';
import { RequestBodies, type RequestBodyLimits } from './request-bodies.js';
import { RequestGuard, requireJsonBody } from './request-guard.js';
import { runEnding } from './run-ending-body.js';
import type { ServedModelReply, ServedRun } from './served-run.js';
import type { ServedSweep } from './served-sweep.js';
import { ServeRefusal } from './serve-refusal.js';

export interface ServeServerOptions {
  readonly sweep: ServedSweep;
  /** @default 127.0.0.1 */
  readonly host?: string;
  /** 0 picks a free port. @default 0 */
  readonly port?: number;
  /** Host names answered besides loopback ones and `host` (`--allow-host`). @default [] */
  readonly allowHosts?: readonly string[];
  /** Browser origins let in (`--allow-origin`); any other request with an Origin header gets 403. @default [] */
  readonly allowOrigins?: readonly string[];
  /** How large a body may be, and how many bytes of bodies are held at once. */
  readonly bodies?: RequestBodyLimits;
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

/**
 * How long an idle kept-alive connection stays open. Node's default (5 s) is shorter than
 * agents' pauses under load: a pooled connection closed by the server just as the client
 * reuses it resets the request (a lost /end, a run recorded silent). A minute is past any
 * SDK's own idle timeout (undici follows the Keep-Alive header serve sends, httpx keeps 5 s),
 * so the client closes first.
 */
const KEEP_ALIVE_MS = 65_000;
/** Longer than the keep-alive, as Node asks, so a reused connection's next headers are never cut off. */
const HEADERS_TIMEOUT_MS = 70_000;
/** The whole of one request (headers and body) must arrive within this: a stalled upload frees its place. */
const REQUEST_TIMEOUT_MS = 120_000;
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
  readonly #guard: RequestGuard;
  readonly #bodies: RequestBodies;
  /** Every run's tools: one MCP server for the sweep, built once; each request names its run. */
  readonly #mcp = new McpSweepServer();
  /** Each run the agent ended, with a digest of the ending it sent: the same ending sent again gets the same record. */
  readonly #endings = new Map<string, { readonly digest: string; readonly record: RunRecord }>();
  #base = '';
  #port = 0;
  /** Set by `close`: connections are closed as soon as their answer is sent. */
  #closing = false;

  constructor(options: ServeServerOptions) {
    this.#options = options;
    this.#guard = new RequestGuard({
      hosts: [...(options.host === undefined ? [] : [options.host]), ...(options.allowHosts ?? [])],
      origins: options.allowOrigins ?? [],
    });
    this.#bodies = new RequestBodies(options.bodies);
    this.#server = createServer(
      { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
      (request, response) => {
        // An answer still being written when serve closes (the last run's /end, stored while
        // the sweep was already finishing) leaves its connection idle only once it is sent:
        // close it then, or a kept-alive connection would hold serve open for KEEP_ALIVE_MS.
        response.once('finish', () => {
          if (this.#closing) this.#server.closeIdleConnections();
        });
        this.#handle(request, response).catch((error: unknown) => {
          const refusal =
            error instanceof ServeRefusal
              ? error
              : new ServeRefusal(500, 'api_error', `spiralbench serve: ${String(error)}`);
          if (response.headersSent) {
            response.destroy();
            return;
          }
          // A body left unread (refused before or while reading it) is not drained: the connection closes.
          const close = request.complete ? {} : { connection: 'close' };
          response.writeHead(refusal.status, {
            ...refusal.headers,
            'content-type': 'application/json',
            ...this.#guard.corsHeaders(request.headers),
            ...close,
          });
          response.end(refusal.body());
        });
      },
    );
  }

  /** Starts listening; resolves to the base URL (`http://127.0.0.1:<port>`, also for 0.0.0.0). */
  async listen(): Promise<string> {
    const host = this.#options.host ?? '127.0.0.1';
    const bound = await listenBaseUrl(this.#server, host, this.#options.port ?? 0);
    this.#port = Number(new URL(bound).port);
    // Every interface includes loopback: the URLs printed are ones this machine's agents can use as they are.
    this.#base = isWildcard(host) ? `http://${host.includes(':') ? '[::1]' : '127.0.0.1'}:${this.#port}` : bound;
    return this.#base;
  }

  urls(): ServeUrls {
    return serveUrls(this.#base);
  }

  async close(): Promise<void> {
    this.#closing = true;
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeIdleConnections();
    });
    await this.#mcp.close();
  }

  /**
   * Who may ask (403), then what is asked (404, 405, 409), then the body's type (415) and
   * size (413): nothing of a body is read for a request refused on its headers.
   */
  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.#guard.admit(request.headers, this.#port);
    const path = new URL(request.url ?? '/', 'http://serve.local').pathname;
    const method = request.method ?? 'GET';
    const cors = this.#guard.corsHeaders(request.headers);
    if (method === 'OPTIONS' && cors['access-control-allow-origin'] !== undefined)
      return preflight(response, cors, request.headers['access-control-request-headers']);
    const route = this.#route(method, path);
    if (method === 'POST') requireJsonBody(request.headers);
    const body = method === 'POST' ? await this.#bodies.read(request) : '';
    for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
    switch (route.kind) {
      case 'about':
        return json(response, 200, this.#about());
      case 'start': {
        const run = this.#options.sweep.start(seedOf(body));
        this.#options.onStarted?.(run);
        return json(response, 201, this.#started(run));
      }
      case 'end':
        return json(response, 200, await this.#end(route.id, body));
      case 'mcp':
        return this.#mcp.answer(route.run, request, response, mcpBody(body));
      case 'model':
        return answerModel(route.run, route.path, body, request, response);
    }
  }

  /** What a request asks for, from its method and path alone; a refusal for a route or run there is not. */
  #route(method: string, path: string): Route {
    if (path === '/' && method === 'GET') return { kind: 'about' };
    if (path === '/runs' && method === 'POST') return { kind: 'start' };
    const match = RUN_PATH.exec(path);
    if (match === null)
      throw new ServeRefusal(404, 'not_found_error', `no route ${method} ${path}; GET / describes the run API`);
    const [, encoded = '', rest = '/'] = match;
    const id = runIdOf(encoded);
    // An ended run's ending may come again (its answer lost to a reset): its body decides.
    if (rest === '/end' && method === 'POST' && this.#endings.has(id)) return { kind: 'end', id };
    const run = this.#options.sweep.run(id);
    this.#options.onActivity?.(run);
    if (rest === '/end' && method === 'POST') return { kind: 'end', id };
    if (rest === '/mcp' && method !== 'POST')
      // Stateless: no server-sent stream to open (GET) and no session to close (DELETE).
      throw new ServeRefusal(405, 'method_not_allowed', 'this MCP endpoint is stateless: POST only', {
        headers: { allow: 'POST' },
      });
    if (rest === '/mcp') return { kind: 'mcp', run };
    if (method === 'POST' && (rest === '/v1/messages' || rest === '/v1/chat/completions'))
      return { kind: 'model', run, path: rest };
    throw new ServeRefusal(404, 'not_found_error', `no route ${method} /runs/${encoded}${rest}; see GET /`);
  }

  /** Ends run `id` with the agent's ending; the same ending again gets the same record, recorded once. */
  async #end(id: string, body: string): Promise<RunRecord> {
    const digest = createHash('sha256').update(body.trim()).digest('hex');
    const ended = this.#endings.get(id);
    if (ended?.digest === digest) return ended.record;
    // A run not ended yet, or a different ending for one that is (refused there with 409).
    const run = this.#options.sweep.run(id);
    const record = await this.#options.sweep.end(run.id, { returned: runEnding(body) });
    this.#endings.set(run.id, { digest, record });
    this.#options.onEnded?.(run, record);
    return record;
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

/** Whether `host` means every interface (0.0.0.0, ::). */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** What a request asks for, resolved before its body is read. */
type Route =
  | { readonly kind: 'about' }
  | { readonly kind: 'start' }
  | { readonly kind: 'end'; readonly id: string }
  | { readonly kind: 'mcp'; readonly run: ServedRun }
  | { readonly kind: 'model'; readonly run: ServedRun; readonly path: string };

/** The answer to an allowed browser origin's CORS preflight. */
function preflight(response: ServerResponse, cors: Record<string, string>, asked: string | undefined): void {
  response.writeHead(204, {
    ...cors,
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': asked ?? 'content-type',
    'access-control-max-age': '600',
  });
  response.end();
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
  let answer: ServedModelReply;
  try {
    answer = await run.callModel(path, body);
  } catch (error) {
    if (error instanceof ServeRefusal) throw error;
    request.socket.destroy();
    return;
  }
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
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
