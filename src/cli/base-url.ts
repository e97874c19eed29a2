import { UserInputError } from '../user-input-error.js';

/** A provider's base URL, read once: what to send to, what to print, what to keep secret. */
export interface BaseUrl {
  /** As given, for the client. */
  readonly href: string;
  /** Origin and path only: a user, password or query (some proxies take a key there) is never printed. */
  readonly display: string;
  /** Parts of the URL that may be credentials, scrubbed from errors like the key. */
  readonly secrets: readonly string[];
  /** Loopback or a private network address: the user's own server. */
  readonly local: boolean;
}

const PRIVATE_V4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^0\.0\.0\.0$/];

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  if (host.startsWith('fc') || host.startsWith('fd') || host.startsWith('fe80:')) return host.includes(':');
  return PRIVATE_V4.some((range) => range.test(host));
}

/**
 * Checks a base URL flag: http or https, with a host.
 *
 * @example
 * parseBaseUrl('http://localhost:11434/v1').local // true
 */
export function parseBaseUrl(text: string, source = '--base-url'): BaseUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw UserInputError.single(source, '', 'an http(s) URL such as http://localhost:11434/v1 (the value is not repeated here: it may hold a credential)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw UserInputError.single(source, '', `an http:// or https:// URL, got a ${url.protocol} URL`);
  }
  const secrets = [url.username, url.password, url.search.slice(1)].map(decodeURIComponent).filter((part) => part !== '');
  const display = `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  return { href: text, display, secrets, local: isLocalHost(url.hostname) };
}
