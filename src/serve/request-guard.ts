import type { IncomingHttpHeaders } from 'node:http';
import { ServeRefusal } from './serve-refusal.js';

/** Who may talk to serve, besides a process on this machine that names it by a loopback address. */
export interface RequestGuardOptions {
  /** Host names answered besides localhost, 127.0.0.1 and [::1] (`--host`, `--allow-host`). @default [] */
  readonly hosts?: readonly string[];
  /** The command whose server this is, as its refusals name it and its flags. @default 'serve' */
  readonly command?: 'serve' | 'view';
  /** Browser origins let in (`--allow-origin`), as `scheme://host[:port]`. @default [] */
  readonly origins?: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** Addresses that mean "every interface": they name no host a request could use. */
/** Addresses that listen on every interface: no request names them, so they name no Host. */
export const WILDCARD_ADDRESSES: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Whether a request may reach serve, checked from its headers alone, before its route or
 * body. serve has no authentication: it is a loopback server an agent on this machine
 * drives. A web page the user visits is the one other thing that can reach loopback, so
 * (following the MCP specification's guidance for Streamable HTTP servers):
 * - the Host header must name serve by a loopback name (or one allowed) with serve's
 *   port: a DNS-rebound page's requests carry the attacker's host name;
 * - a request with an Origin header comes from a browser: refused unless the origin is
 *   allowed (agents' HTTP clients send none);
 * - a POST body must be declared `application/json`: a page can send `text/plain` or a
 *   form across origins without asking (a CORS "simple request"), never JSON.
 *
 * @example
 * const guard = new RequestGuard({ hosts: ['agents.internal'] });
 * guard.admit(request.headers, 8788); // throws a 403 ServeRefusal for a foreign Host or Origin
 */
export class RequestGuard {
  readonly #hosts: ReadonlySet<string>;
  /** The command whose server this guards, named in its refusals. */
  readonly #command: 'serve' | 'view';
  readonly #origins: ReadonlySet<string>;

  constructor(options: RequestGuardOptions = {}) {
    const named = (options.hosts ?? []).map(hostName).filter((host) => !WILDCARD_ADDRESSES.has(host));
    this.#hosts = new Set([...LOOPBACK_NAMES, ...named]);
    this.#origins = new Set((options.origins ?? []).map(originOf));
    this.#command = options.command ?? 'serve';
  }

  /** Refuses (403) a request whose Host is not serve's, or which a browser sent from an origin not allowed. */
  admit(headers: IncomingHttpHeaders, port: number): void {
    const host = headers.host ?? '';
    if (!this.#isServe(host, port))
      throw new ServeRefusal(
        403,
        'forbidden_host',
        `Host '${host}' is not one ${this.#command} answers to: name it as localhost, 127.0.0.1 or [::1] with port ${port}, or start ${this.#command} with --allow-host <name>.`,
      );
    const origin = headers.origin;
    if (origin !== undefined && !this.#origins.has(originOf(origin)))
      throw new ServeRefusal(
        403,
        'forbidden_origin',
        this.#command === 'serve'
          ? `Origin '${origin}' is refused: serve answers agents, not web pages, unless started with --allow-origin ${origin}.`
          : `Origin '${origin}' is refused: the viewer answers its own page only.`,
      );
  }

  /** The CORS headers for an allowed browser origin; none for a request without one. */
  corsHeaders(headers: IncomingHttpHeaders): Record<string, string> {
    const origin = headers.origin;
    if (origin === undefined || !this.#origins.has(originOf(origin))) return {};
    return { 'access-control-allow-origin': origin, vary: 'origin' };
  }

  #isServe(host: string, port: number): boolean {
    let url: URL;
    try {
      url = new URL(`http://${host}`);
    } catch {
      return false;
    }
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '') return false;
    const samePort = url.port === String(port) || (url.port === '' && port === 80);
    return samePort && this.#hosts.has(url.hostname);
  }
}

/**
 * Refuses (415) a POST whose body is not declared JSON. The MCP transport takes the same
 * type, so one check covers every route.
 */
export function requireJsonBody(headers: IncomingHttpHeaders): void {
  const declared = headers['content-type'];
  const type = declared?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    throw new ServeRefusal(
      415,
      'unsupported_media_type',
      `serve takes POST bodies as JSON with content-type: application/json, not ${declared === undefined ? 'a body without a content-type' : `'${declared}'`}.`,
    );
}

/** A host name as URL parsing writes it: lower case, an IPv6 address in brackets. */
function hostName(host: string): string {
  const bare = host.trim().toLowerCase();
  return bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
}

/** An origin as a browser writes it: lower case, no trailing slash. */
function originOf(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}
