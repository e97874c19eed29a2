import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { VirtualClock } from '../clock/virtual-clock.js';
import { stream, type StreamKey } from '../random/streams.js';
import type { ConfigChange } from './config-change.js';

/**
 * The faults the model endpoint can inject, as the Anthropic API produces them. New kinds
 * go at the end: the order fixes which fault a draw picks, so it must never change.
 */
export const MODEL_FAULT_KINDS = [
  'rate_limit',
  'server_error',
  'overloaded',
  'request_too_large',
  'unknown_model',
  'unauthorized',
  'connection_error',
  'timeout',
  // Streamed calls only: a non-streaming call that draws it goes through (see ModelFaultInjector).
  'stream_cut',
] as const;
export type ModelFaultKind = (typeof MODEL_FAULT_KINDS)[number];
/** The kinds every run record counts (and runs.csv has a column for); `stream_cut` is counted on streamed runs only. */
export type RecordedModelFaultKind = Exclude<ModelFaultKind, 'stream_cut'>;
export const RECORDED_MODEL_FAULT_KINDS = MODEL_FAULT_KINDS.filter(
  (kind): kind is RecordedModelFaultKind => kind !== 'stream_cut',
);
export type ModelFaultRates = Partial<Record<ModelFaultKind, number>>;

export interface ModelFaultProfile {
  /** Chance per model call of each fault; one draw picks at most one. */
  readonly rates: ModelFaultRates;
  /**
   * Chance that a retry of a failed call (same turn) meets the same fault again, as an
   * outage lasts; otherwise the retry draws afresh from `rates`. 0 makes attempts independent.
   */
  readonly persistence: number;
  /** Model ids the faults apply to (e.g. only the primary, so a fallback succeeds); null: every model. */
  readonly models: readonly string[] | null;
  /** `retry-after` a 429 carries, in ms (sent in whole seconds, as the API does). */
  readonly retryAfterMs: number;
  /** How long a timed-out call hangs before the client gives up, in ms. */
  readonly timeoutMs: number;
  /** A change of the loop's configuration to a model the API does not know, mid-run; null: none. */
  readonly configChange: ConfigChange | null;
}

export const NO_MODEL_FAULTS: ModelFaultProfile = Object.freeze({
  rates: {},
  persistence: 0,
  models: null,
  retryAfterMs: 5000,
  timeoutMs: 600_000,
  configChange: null,
});

/** The body of an Anthropic API error response. */
export interface AnthropicErrorBody {
  readonly type: 'error';
  readonly error: { readonly type: string; readonly message: string };
}

/**
 * What the endpoint does about a fault: answer with an HTTP error and an Anthropic error
 * body, or never answer, so the fetch rejects (a dropped connection or a timeout).
 */
export type ModelFaultResponse =
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly body: AnthropicErrorBody;
      readonly headers: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'connection_error' | 'timeout'; readonly message: string }
  /** A stream that starts (200, the first half of the reply's events) and then ends with an `event: error` frame carrying `body`. */
  | {
      readonly kind: 'stream_cut';
      readonly body: AnthropicErrorBody;
      readonly headers: Readonly<Record<string, string>>;
    };

export interface ModelFault {
  readonly kind: ModelFaultKind;
  readonly response: ModelFaultResponse;
}

/** What a fault source reads of a request: the model asked for, the transcript, and whether the reply is streamed. */
export type FaultedRequest = {
  readonly model: string;
  readonly messages: readonly MessageParam[];
  readonly stream?: boolean | undefined;
};

/** Decides, request by request, which model calls fail. */
export interface ModelFaultSource {
  /** The fault this request meets, or null to let it through to the model. */
  next(request: FaultedRequest): ModelFault | null;
}

/** Virtual time before a faulted call fails: an error answers quickly, a timeout hangs. */
const FAULT_LATENCY_MS: Readonly<Record<Exclude<ModelFaultKind, 'timeout'>, number>> = {
  rate_limit: 50,
  server_error: 500,
  overloaded: 300,
  request_too_large: 50,
  unknown_model: 50,
  unauthorized: 50,
  connection_error: 20,
  // Time to first token and part of the reply before the cut; the partial output is not billed.
  stream_cut: 1000,
};

function http(
  status: number,
  type: string,
  message: string,
  requestId: string,
  extra: Record<string, string> = {},
): ModelFaultResponse {
  return {
    kind: 'http',
    status,
    body: { type: 'error', error: { type, message } },
    headers: { 'content-type': 'application/json', 'request-id': requestId, ...extra },
  };
}

/** The response the Anthropic API gives for a fault (status, error type, wording, headers). */
export function modelFaultResponse(
  kind: ModelFaultKind,
  request: FaultedRequest,
  profile: Pick<ModelFaultProfile, 'retryAfterMs' | 'timeoutMs'>,
  requestId: string,
): ModelFaultResponse {
  switch (kind) {
    case 'rate_limit':
      return http(
        429,
        'rate_limit_error',
        "This request would exceed your organization's rate limit. Please retry after the time in the retry-after header.",
        requestId,
        {
          'retry-after': String(Math.ceil(profile.retryAfterMs / 1000)),
        },
      );
    case 'server_error':
      return http(500, 'api_error', 'Internal server error', requestId);
    case 'overloaded':
      return http(529, 'overloaded_error', 'Overloaded', requestId);
    case 'request_too_large':
      return http(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', requestId);
    case 'unknown_model':
      return http(404, 'not_found_error', `model: ${request.model}`, requestId);
    case 'unauthorized':
      return http(401, 'authentication_error', 'invalid x-api-key', requestId);
    case 'connection_error':
      return { kind: 'connection_error', message: 'read ECONNRESET (api.anthropic.com:443)' };
    case 'timeout':
      return { kind: 'timeout', message: `request timed out after ${profile.timeoutMs} ms` };
    case 'stream_cut':
      // How the API ends a stream it cannot finish: an error event, here overloaded_error (HTTP 529 when not streaming).
      return {
        kind: 'stream_cut',
        body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        headers: { 'content-type': 'text/event-stream', 'request-id': requestId },
      };
  }
}

function turnOf(messages: readonly MessageParam[]): number {
  let turn = 0;
  for (const message of messages) if (message.role === 'assistant') turn += 1;
  return turn;
}

/**
 * Every injector's counts start as a copy of this: a copy of an object whose shape V8
 * knows is far cheaper than adding the keys one by one. Module-private and only ever
 * copied, so no run can write to it.
 */
const NO_FAULTS: Readonly<Record<ModelFaultKind, number>> = (() => {
  const counts = {} as Record<ModelFaultKind, number>;
  for (const kind of MODEL_FAULT_KINDS) counts[kind] = 0;
  return counts;
})();

function zeroCounts(): Record<ModelFaultKind, number> {
  return { ...NO_FAULTS };
}

const thresholdsByRates = new WeakMap<ModelFaultRates, ReadonlyArray<readonly [ModelFaultKind, number]>>();

/**
 * Cumulative thresholds in MODEL_FAULT_KINDS order: one uniform draw picks at most one
 * fault. Made once per scenario's rates: every run builds its own injector.
 */
function thresholds(rates: ModelFaultRates): ReadonlyArray<readonly [ModelFaultKind, number]> {
  let known = thresholdsByRates.get(rates);
  if (known === undefined) {
    known = thresholdsOf(rates);
    thresholdsByRates.set(rates, known);
  }
  return known;
}

function thresholdsOf(rates: ModelFaultRates): ReadonlyArray<readonly [ModelFaultKind, number]> {
  let total = 0;
  const out: Array<readonly [ModelFaultKind, number]> = [];
  for (const kind of MODEL_FAULT_KINDS) {
    const rate = rates[kind] ?? 0;
    if (rate <= 0) continue;
    total += rate;
    out.push([kind, total]);
  }
  if (total > 1 + 1e-9) throw new RangeError(`model fault rates add up to ${total}, more than 1`);
  return out;
}

/**
 * The model-side fault injector of one run: harness infrastructure between the client
 * and the simulated model, which never learns of it. The turn is read from the request
 * the way the model reads it (assistant messages so far); the attempt is how many times
 * in a row that turn has been asked for, counted here. A fault at (turn, attempt) is
 * drawn from the stream (run, `model-fault:<attempt>`, turn), so the Nth turn meets the
 * same fault in every arm. A faulted call costs virtual time on the run's clock, and
 * every injected fault is counted.
 */
export class ModelFaultInjector implements ModelFaultSource {
  /** Faults injected so far, by kind, in MODEL_FAULT_KINDS order. */
  readonly counts: Record<ModelFaultKind, number> = zeroCounts();
  readonly #profile: ModelFaultProfile;
  readonly #thresholds: ReadonlyArray<readonly [ModelFaultKind, number]>;
  readonly #key: StreamKey;
  readonly #clock: VirtualClock;
  #turn = -1;
  #attempt = 0;
  #last: ModelFaultKind | null = null;

  constructor(profile: ModelFaultProfile, key: StreamKey, clock: VirtualClock) {
    this.#profile = profile;
    this.#thresholds = thresholds(profile.rates);
    this.#key = key;
    this.#clock = clock;
  }

  next(request: FaultedRequest): ModelFault | null {
    // The changed configuration's model does not exist: the API answers every call to it
    // with a 404, whatever the draws. It draws nothing, so the streams stay where they are.
    if (request.model === this.#profile.configChange?.model) return this.#unknownModel(request);
    // A profile without faults draws nothing: scenarios without model faults keep their streams untouched.
    if (this.#thresholds.length === 0) return null;
    const turn = turnOf(request.messages);
    this.#attempt = turn === this.#turn ? this.#attempt + 1 : 0;
    this.#turn = turn;
    const drawn = this.#draw(request.model, turn, this.#attempt);
    // Only a stream can be cut: a non-streaming call that draws the cut goes through, so the
    // draws (and every other fault) stay where they are with streaming on or off.
    const kind = drawn === 'stream_cut' && request.stream !== true ? null : drawn;
    this.#last = kind;
    if (kind === null) return null;
    this.counts[kind] += 1;
    this.#clock.sleep(kind === 'timeout' ? this.#profile.timeoutMs : FAULT_LATENCY_MS[kind]);
    const requestId = `req_sim_fault_${this.#key.runSeed}_${turn}_${this.#attempt}`;
    return { kind, response: modelFaultResponse(kind, request, this.#profile, requestId) };
  }

  #unknownModel(request: FaultedRequest): ModelFault {
    this.counts.unknown_model += 1;
    this.#clock.sleep(FAULT_LATENCY_MS.unknown_model);
    const requestId = `req_sim_config_${this.#key.runSeed}_${turnOf(request.messages)}`;
    return { kind: 'unknown_model', response: modelFaultResponse('unknown_model', request, this.#profile, requestId) };
  }

  #draw(model: string, turn: number, attempt: number): ModelFaultKind | null {
    const { models, persistence } = this.#profile;
    if (models !== null && !models.includes(model)) return null;
    const rng = stream(this.#key, `model-fault:${attempt}`, turn);
    // Two draws on every attempt, whatever the state, so a draw always means the same thing.
    const lasts = rng.next() < persistence;
    const u = rng.next();
    if (attempt > 0 && this.#last !== null && lasts) return this.#last;
    for (const [kind, threshold] of this.#thresholds) if (u < threshold) return kind;
    return null;
  }
}

/**
 * A fault source that plays a fixed list, one entry per request (null lets it through),
 * for exact tests. Past the end of the list every request goes through.
 */
export function scriptedModelFaults(
  script: readonly (ModelFaultKind | null)[],
  profile: Pick<ModelFaultProfile, 'retryAfterMs' | 'timeoutMs'> = NO_MODEL_FAULTS,
): ModelFaultSource & { readonly requests: FaultedRequest[] } {
  const requests: FaultedRequest[] = [];
  return {
    requests,
    next(request) {
      const index = requests.length;
      requests.push({
        model: request.model,
        messages: [...request.messages],
        ...(request.stream === true ? { stream: true } : {}),
      });
      const kind = script[index] ?? null;
      return kind === null || (kind === 'stream_cut' && request.stream !== true)
        ? null
        : { kind, response: modelFaultResponse(kind, request, profile, `req_script_${index}`) };
    },
  };
}
