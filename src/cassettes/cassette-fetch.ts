import type { AgentBaseURLs, AgentEndpoint } from '../run/simulated-endpoint.js';
import type { CassetteRunContext } from './cassette-client.js';
import { CassetteMismatchError, measureCall } from './cassette-client.js';
import {
  type Cassette,
  CassetteError,
  type CassetteExchange,
  describeRun,
  readCassette,
  type StoredResponse,
  writeCassette,
} from './cassette-file.js';
import { isKeptHeader, modelErrorOf, storedModelError } from './model-error-json.js';
import { bodyParts, firstDifference, type RequestParts } from './request-fingerprint.js';

type FetchInput = Parameters<typeof fetch>[0];

/**
 * The request's path under the base URL of the API it calls (`/v1/messages` under the
 * Messages API's, `/chat/completions` under Chat Completions'), so a recording against a
 * server at `http://host/runs/1` replays against one at another address.
 */
function pathOf(input: FetchInput, baseURL: AgentBaseURLs): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  let path: string;
  try {
    path = new URL(href).pathname;
  } catch {
    return href;
  }
  const base = path.endsWith('/chat/completions') ? baseURL.openai : baseURL.anthropic;
  const prefix = new URL(base).pathname.replace(/\/+$/, '');
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
}

/** The request's body as text, read without consuming what the caller passes on. */
async function bodyText(input: FetchInput, init: RequestInit | undefined): Promise<string> {
  const body = init?.body;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body === undefined && input instanceof Request) return input.clone().text();
  if (body === undefined || body === null) return '';
  return new Response(body).text();
}

/** A response as a cassette keeps it: status, headers, and the body decoded (as JSON where it reads back to the same text). */
async function storedResponse(response: Response): Promise<{ stored: StoredResponse; text: string }> {
  const text = await response.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (isKeptHeader(name)) headers[name] = value;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = json !== undefined && JSON.stringify(json) === text ? { json } : { text };
  return { stored: { status: response.status, headers, ...body }, text };
}

function responseOf(stored: StoredResponse): Response {
  const body = stored.json !== undefined ? JSON.stringify(stored.json) : (stored.text ?? '');
  return new Response(body, { status: stored.status, headers: stored.headers });
}

/** The parts of one HTTP call's request: its path and, for a model request, the same digests as our loop's. */
async function httpRequestParts(input: FetchInput, init: RequestInit | undefined, baseURL: AgentBaseURLs) {
  const text = await bodyText(input, init);
  return { parts: bodyParts(pathOf(input, baseURL), text), init: { ...init, body: text } };
}

/**
 * An agent's model endpoint whose every call is kept on the way (the request's digests,
 * the response's status, headers and body, or the error fetch threw; the virtual time the
 * call took; the model fault the endpoint injected), for `save` to write once the run is over.
 * The agent's clients, a peer framework's or a served agent's, reach the model through it
 * unchanged: it sits where the meter sits, on the wire.
 *
 * @example
 * const recording = new RecordingEndpoint(endpoint, context, 'simulated-sdk');
 * // the agent calls recording.endpoint.fetch …
 * recording.save(dir);
 */
export class RecordingEndpoint {
  readonly endpoint: AgentEndpoint;
  readonly #context: CassetteRunContext;
  readonly #label: string;
  readonly #exchanges: CassetteExchange[];

  /** `label`: what the run's record calls the model; a replay names it so. `before`: calls already answered, kept first. */
  constructor(
    inner: AgentEndpoint,
    context: CassetteRunContext,
    label: string,
    before: readonly CassetteExchange[] = [],
  ) {
    this.#context = context;
    this.#label = label;
    this.#exchanges = [...before];
    this.endpoint = { ...inner, fetch: (input, init) => this.#fetch(inner, input, init) };
  }

  async #fetch(inner: AgentEndpoint, input: FetchInput, init: RequestInit | undefined): Promise<Response> {
    const { parts, init: sent } = await httpRequestParts(input, init, inner.baseURL);
    const taken = measureCall(parts, this.#context);
    let response: Response;
    try {
      response = await inner.fetch(input, sent);
    } catch (error) {
      this.#exchanges.push({ ...taken(), error: storedModelError(error) });
      throw error;
    }
    const { stored, text } = await storedResponse(response);
    this.#exchanges.push({ ...taken(), response: stored });
    return new Response(text, { status: response.status, statusText: response.statusText, headers: stored.headers });
  }

  /** Writes the run's cassette into `dir`. */
  save(dir: string): void {
    writeCassette(dir, this.#context.run, this.#label, this.#exchanges);
  }
}

/**
 * An agent's model endpoint that answers every call from the run's cassette, with no
 * model behind it: the recorded response (or the recorded connection error) after the
 * recorded virtual time, the injected fault counted again. A call is matched to the first
 * recorded call not yet answered with the same request, so an agent that calls the model
 * concurrently replays too. A request the cassette lacks gets a 400 naming the run, the
 * call and the first part that differs, so the agent's run fails on it and its record
 * says why; with `live` (`--record-missing`) it goes to the live model instead.
 */
export class ReplayingEndpoint {
  readonly endpoint: AgentEndpoint;
  /** What the run's record calls the model: as recorded, or `label` for a run never recorded. */
  readonly label: string;
  readonly #cassette: Cassette | CassetteError;
  readonly #context: CassetteRunContext;
  readonly #live: AgentEndpoint | undefined;
  readonly #answered: boolean[];
  #recorder: RecordingEndpoint | undefined;
  #calls = 0;
  /** The first request the cassette could not answer, in words: the run's failure names it. */
  #missed: CassetteMismatchError | CassetteError | undefined;

  private constructor(
    cassette: Cassette | CassetteError,
    label: string,
    context: CassetteRunContext,
    shape: Omit<AgentEndpoint, 'fetch' | 'label'>,
    live: AgentEndpoint | undefined,
  ) {
    this.#cassette = cassette;
    this.#context = context;
    this.#live = live;
    this.label = cassette instanceof CassetteError ? label : cassette.model;
    this.#answered = cassette instanceof CassetteError ? [] : cassette.exchanges.map(() => false);
    this.endpoint = { ...shape, label: this.label, fetch: (input, init) => this.#fetch(input, init) };
  }

  /**
   * The replaying endpoint of a run, from its cassette in `dir`. `shape`: the base URLs and
   * model id the agent's clients are given (the model id the recording's requests named).
   */
  static open(
    dir: string,
    label: string,
    context: CassetteRunContext,
    shape: Omit<AgentEndpoint, 'fetch' | 'label'>,
    live?: AgentEndpoint,
  ): ReplayingEndpoint {
    let cassette: Cassette | CassetteError;
    try {
      cassette = readCassette(dir, context.run);
    } catch (error) {
      if (!(error instanceof CassetteError)) throw error;
      cassette = error;
    }
    return new ReplayingEndpoint(cassette, label, context, shape, live);
  }

  /** The first call the cassette could not answer, if any: what failed the run. */
  get missed(): Error | undefined {
    return this.#missed;
  }

  /** Writes the run's cassette again, the replayed calls then the live ones, when a call went live. */
  saveRecorded(dir: string): void {
    this.#recorder?.save(dir);
  }

  async #fetch(input: FetchInput, init: RequestInit | undefined): Promise<Response> {
    if (this.#recorder !== undefined) return this.#recorder.endpoint.fetch(input, init);
    const call = this.#calls++;
    const { parts, init: sent } = await httpRequestParts(input, init, this.endpoint.baseURL);
    const cassette = this.#cassette;
    const missing = (problem: CassetteMismatchError | CassetteError): Promise<Response> => {
      if (this.#live === undefined) {
        this.#missed ??= problem;
        return Promise.resolve(refusal(problem));
      }
      const replayed =
        cassette instanceof CassetteError ? [] : cassette.exchanges.filter((_, i) => this.#answered[i] === true);
      this.#recorder = new RecordingEndpoint(this.#live, this.#context, this.label, replayed);
      return this.#recorder.endpoint.fetch(input, sent);
    };
    if (cassette instanceof CassetteError) return missing(cassette);
    const where = `${describeRun(this.#context.run)}, model call ${call + 1}`;
    const found = this.#match(cassette, parts);
    if (typeof found === 'string') return missing(new CassetteMismatchError(`${where}: ${found} (${cassette.path})`));
    const exchange = cassette.exchanges[found]!;
    this.#answered[found] = true;
    const { clock, faultCounts } = this.#context;
    clock.sleep(exchange.clock_ms);
    if (exchange.injected !== null) faultCounts[exchange.injected] += 1;
    if (exchange.error !== undefined) throw modelErrorOf(exchange.error);
    if (exchange.response === undefined)
      throw new CassetteMismatchError(`${where}: the cassette holds no response for this call`);
    return responseOf(exchange.response);
  }

  /** The index of the first unanswered recorded call with this request, or why there is none. */
  #match(cassette: Cassette, parts: RequestParts): number | string {
    let next: number | undefined;
    for (let i = 0; i < cassette.exchanges.length; i++) {
      if (this.#answered[i] === true) continue;
      next ??= i;
      if (firstDifference(cassette.exchanges[i]!.request, parts) === null) return i;
    }
    if (next === undefined) return `the cassette holds ${cassette.exchanges.length} calls of this run`;
    return `the request differs from the recorded one at ${firstDifference(cassette.exchanges[next]!.request, parts)}`;
  }
}

/**
 * What an agent's client gets for a call the cassette lacks: a 400 in the Messages API's
 * error shape (which the OpenAI SDK reads as well), so the agent fails as on any refused
 * request; the run's record then names the cassette's reason, not the agent's words for it.
 */
function refusal(problem: Error): Response {
  const body = { type: 'error', error: { type: 'invalid_request_error', message: `cassette: ${problem.message}` } };
  return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } });
}
