import type { ToolExecution } from '../tools/tool-execution.js';

/**
 * How the tool server answers one execution on the wire. The flaky tool has already
 * decided what happens (and run the handler when the fault lets it); this is only how
 * that decision looks to an HTTP client.
 */
export type WireAnswer =
  /** A normal response: 200 with the tool's body (cut short for malformed JSON), or an HTTP error. */
  | {
      readonly kind: 'respond';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  /** Read the request, never answer: the client's timeout fires waiting for headers. */
  | { readonly kind: 'hang' }
  /** Send the headers and the start of the body, then stall: the timeout fires mid-body. */
  | { readonly kind: 'slow_body'; readonly body: string }
  /** Tear the connection down with a TCP RST after the request (and its side effect) went through. */
  | { readonly kind: 'reset' }
  /** Redirect to a loopback port nobody listens on: the client's own connect is refused. */
  | { readonly kind: 'refuse' };

/**
 * The wire answer for an execution. `slowBody` picks how a timeout shows (headers never
 * come, or the body stalls); the caller draws it from a stream of its own, so the fault
 * decisions' streams are not touched.
 */
export function wireAnswer(execution: ToolExecution, slowBody: boolean): WireAnswer {
  if (execution.kind === 'ok') return { kind: 'respond', status: 200, headers: JSON_TYPE, body: execution.content };
  const { error } = execution;
  switch (error.code) {
    case 'timeout':
      return slowBody ? { kind: 'slow_body', body: '{"data": ' } : { kind: 'hang' };
    case 'connection_refused':
      return { kind: 'refuse' };
    case 'connection_reset':
      return { kind: 'reset' };
    case 'rate_limited': {
      const retryAfterMs = error.retryAfterMs ?? 1000;
      // Retry-After is whole seconds on the wire; retry-after-ms (as Anthropic's API sends) keeps the exact value.
      const headers = {
        ...JSON_TYPE,
        'retry-after': String(Math.ceil(retryAfterMs / 1000)),
        'retry-after-ms': String(retryAfterMs),
      };
      return {
        kind: 'respond',
        status: 429,
        headers,
        body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too Many Requests' } }),
      };
    }
    case 'server_error':
      return {
        kind: 'respond',
        status: error.status ?? 503,
        headers: JSON_TYPE,
        body: JSON.stringify({ error: { code: 'server_error', message: 'Service Unavailable' } }),
      };
    default:
      // The tool's own failures (401, 400, 404, a handler that threw) travel as structured error bodies.
      return {
        kind: 'respond',
        status: error.status ?? 500,
        headers: JSON_TYPE,
        body: JSON.stringify({ error: { code: error.code, message: error.message } }),
      };
  }
}

const JSON_TYPE: Readonly<Record<string, string>> = { 'content-type': 'application/json' };
