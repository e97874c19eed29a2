import type { ToolErrorCode } from './tool-error.js';

/**
 * Node / undici error codes, by the tool error they mean. A real HTTP client meets these
 * where the simulated tools throw a ToolError; mapping them gives a real failure the same
 * class (and so the same retry decision) as the simulated one it stands for.
 */
const CODES: Readonly<Record<string, ToolErrorCode>> = {
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  EAI_AGAIN: 'connection_refused',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
};

/** What the network said about a request that never produced a response. */
export type NetworkFailure =
  /** An abort: by a timeout signal (`TimeoutError`) or by the caller (`AbortError`). */
  | { readonly kind: 'aborted'; readonly name: 'TimeoutError' | 'AbortError' }
  /** A socket or DNS error code somewhere in the cause chain. */
  | { readonly kind: 'code'; readonly code: ToolErrorCode; readonly name: string; readonly link: unknown }
  /** `fetch failed` with no cause we know: still the network failing, not the tool. */
  | { readonly kind: 'fetch_failed'; readonly cause: unknown };

/** The error and its causes, outermost first (fetch wraps the socket error in `cause`). */
export function errorChain(error: unknown): unknown[] {
  const links: unknown[] = [];
  for (
    let link = error;
    link !== undefined && link !== null && links.length < 8;
    link = (link as { cause?: unknown }).cause
  )
    links.push(link);
  return links;
}

/**
 * A thrown error read as a network failure, walking its cause chain: an abort, a known
 * Node/undici code, or a bare `fetch failed`; undefined when it is none of these.
 *
 * @example
 * networkFailureOf(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })) // { kind: 'code', code: 'connection_reset', ... }
 */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
  for (const link of errorChain(error)) {
    const name = (link as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'aborted', name };
    const code = (link as { code?: unknown }).code;
    const known = typeof code === 'string' ? CODES[code] : undefined;
    if (known !== undefined) return { kind: 'code', code: known, name: code as string, link };
  }
  if (error instanceof TypeError && error.message === 'fetch failed')
    return { kind: 'fetch_failed', cause: error.cause };
  return undefined;
}
