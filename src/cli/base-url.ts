import { isIP } from 'node:net';
import { UserInputError } from '../user-input-error.js';

/** A provider's base URL, read once: what to send to, what to print, what to keep secret. */
export interface BaseUrl {
  /** As given, for the client. */
  readonly href: string;
  /** Origin and path only: a query (some proxies take a key there) is never printed. */
  readonly display: string;
  /** Parts of the URL that may be credentials (its query), scrubbed from errors like the key. */
  readonly secrets: readonly string[];
  /** Loopback or a private network address: the user's own server. */
  readonly local: boolean;
}

const PRIVATE_V4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^0\.0\.0\.0$/];

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  if (host.startsWith('fc') || host.startsWith('fd') || host.startsWith('fe80:')) return host.includes(':');
  // Address patterns only for addresses: 10.api.example.com is somebody else's server.
  return isIP(host) === 4 && PRIVATE_V4.some((range) => range.test(host));
}

/**
 * Checks a base URL flag: http or https, with a host, and no user or password. Those are
 * refused rather than moved to a header: Node's fetch will not send a request to a URL
 * that holds them, and the `Authorization: Basic` header they stand for is the one both
 * SDKs fill with the API key (`Bearer <key>`), so one of the two credentials would be lost.
 *
 * @example
 * parseBaseUrl('http://localhost:11434/v1').local // true
 */
export function parseBaseUrl(text: string, source = '--base-url'): BaseUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw UserInputError.single(
      source,
      '',
      'an http(s) URL such as http://localhost:11434/v1 (the value is not repeated here: it may hold a credential)',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw UserInputError.single(source, '', `an http:// or https:// URL, got a ${url.protocol} URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw UserInputError.single(
      source,
      '',
      "a URL without user:password@ (the value is not repeated here): Node's fetch sends no request to such a URL, and the Authorization header a password would go in carries the API key. Give a gateway's credential as the API key (ANTHROPIC_API_KEY or OPENAI_API_KEY) or in the URL's query",
    );
  }
  // Both spellings are secrets: a server may echo either. A malformed escape stays as written.
  const secrets = [url.search.slice(1)]
    .flatMap((part) => [part, decodedOrRaw(part)])
    .filter((part, i, all) => part !== '' && all.indexOf(part) === i);
  const display = `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  return { href: text, display, secrets, local: isLocalHost(url.hostname) };
}

function decodedOrRaw(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Flags whose value is a URL that may carry a credential (a user, password or key in its query). */
const URL_FLAGS = ['--base-url', '--model-url'];

/**
 * The command line as it may be written down (meta.json, a resume hint): a URL flag's
 * value shortened to its origin and path, so a credential in it never reaches a file.
 */
export function argvForRecord(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    const flag = URL_FLAGS.find((name) => arg.startsWith(`${name}=`));
    if (flag !== undefined) return `${flag}=${shownUrl(arg.slice(flag.length + 1))}`;
    return i > 0 && URL_FLAGS.includes(argv[i - 1]!) ? shownUrl(arg) : arg;
  });
}

function shownUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return '<url>';
  }
}
