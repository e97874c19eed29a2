/** What stands in for a secret wherever it would have been printed or written. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are left alone: a placeholder key such as `none` would otherwise blank out ordinary words. */
const MIN_SECRET_LENGTH = 8;

/**
 * A value under a name that only says "secret" (not a provider's key) must be at least this
 * long to count: shorter ones are usually ports, flags or user names, and replacing them
 * would garble ordinary output.
 */
const MIN_NAMED_SECRET_LENGTH = 16;

/** The providers' keys, taken whatever their length (from 8 characters). */
export const PROVIDER_KEY_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY'] as const;

/** The last word of a variable's name that says its value is a secret (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `npm_config__authToken`). */
const SECRET_WORD = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/;

/**
 * `text` with every occurrence of each secret replaced by `[redacted]`, also where JSON
 * escaped it, and each of `cutKeys` (by default every secret given: callers that hold a
 * provider's key pass it) also where it was cut short after its first 24 characters or
 * more. Secrets shorter than 8 characters are left alone.
 *
 * @example
 * redactSecrets('key sk-ant-api03-abc123', ['sk-ant-api03-abc123']) // 'key [redacted]'
 */
export function redactSecrets(text: string, secrets: readonly string[], cutKeys: readonly string[] = secrets): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  }
  for (const key of cutKeys) if (key.length > CUT_PREFIX_LENGTH) out = redactCutSecret(out, key);
  return out;
}

/**
 * The first characters of a provider's key that betray it cut short (an error quoted to a
 * limit): past its public prefix (`sk-ant-api03-` is 13 characters), 11 of the key itself.
 * Only the providers' keys are looked for this way: other secrets (a JWT's header, a
 * framework's key) share their first characters with values that are not secret.
 */
const CUT_PREFIX_LENGTH = 24;

/** `text` with every piece that begins as `secret` does, for CUT_PREFIX_LENGTH characters or more, redacted. */
function redactCutSecret(text: string, secret: string): string {
  const start = secret.slice(0, CUT_PREFIX_LENGTH);
  let at = text.indexOf(start);
  if (at === -1) return text;
  let out = '';
  let from = 0;
  while (at !== -1) {
    let end = at + CUT_PREFIX_LENGTH;
    while (end < text.length && end - at < secret.length && text[end] === secret[end - at]) end++;
    out += `${text.slice(from, at)}${REDACTED}`;
    from = end;
    at = text.indexOf(start, end);
  }
  return out + text.slice(from);
}

/**
 * The secrets of an environment: the providers' keys, and every value of 16 characters or
 * more, without whitespace, under a name whose last word is KEY, TOKEN, SECRET or PASSWORD.
 * Longest first, so a secret that contains another is replaced whole.
 *
 * @example
 * secretsOf({ GITHUB_TOKEN: 'ghp_0123456789abcdef', PORT: '8788' }) // ['ghp_0123456789abcdef']
 */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || /\s/.test(value)) continue;
    const provider = (PROVIDER_KEY_VARS as readonly string[]).includes(name);
    if (provider ? value.length >= MIN_SECRET_LENGTH : value.length >= MIN_NAMED_SECRET_LENGTH && isSecretName(name))
      found.add(value);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** Whether a variable's name says it holds a secret: its last word (split at `_`, `-`, `.` or a camelCase hump) is one. */
function isSecretName(name: string): boolean {
  const words = name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
  const last = words.at(-1);
  return last !== undefined && SECRET_WORD.test(last.toUpperCase());
}

let cached: readonly string[] | undefined;
let cachedKeys: readonly string[] | undefined;

/**
 * This process's secrets (`secretsOf(process.env)`), read once: the environment's keys do
 * not change while a command runs, and every results write and terminal line asks.
 */
export function processSecrets(): readonly string[] {
  cached ??= Object.freeze(secretsOf(process.env));
  return cached;
}

/** This process's providers' keys, read once. */
function processProviderKeys(): readonly string[] {
  cachedKeys ??= Object.freeze(
    PROVIDER_KEY_VARS.map((name) => process.env[name]).filter(
      (value): value is string => value !== undefined && value.length > CUT_PREFIX_LENGTH,
    ),
  );
  return cachedKeys;
}

/**
 * `text` without this process's secrets. The one scrubber: every results file is written
 * through it (results-fs.ts `writeAll`) and the terminal prints through it
 * (`scrubTerminalOutput`), so a key an agent put in a tool argument, an ending or an error
 * reaches neither, whichever command or route carried it.
 */
export function scrubProcessSecrets(text: string): string {
  const secrets = processSecrets();
  return secrets.length === 0 ? text : redactSecrets(text, secrets, processProviderKeys());
}

const SCRUBBED = Symbol.for('spiralbench.scrubbed');

/**
 * Makes `stream.write` scrub this process's secrets from whatever is written (strings and
 * UTF-8 bytes, worker threads' output included, since it is piped through the same
 * stream). A secret split across two writes is not caught: the CLI writes whole lines.
 * Does nothing when the process has no secrets, or twice.
 *
 * @example
 * scrubTerminalOutput(process.stdout, process.stderr);
 */
export function scrubTerminalOutput(...streams: NodeJS.WriteStream[]): void {
  if (processSecrets().length === 0) return;
  for (const stream of streams) {
    const marked = stream as NodeJS.WriteStream & { [SCRUBBED]?: true };
    if (marked[SCRUBBED]) continue;
    marked[SCRUBBED] = true;
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => write(scrubChunk(chunk), ...rest)) as typeof stream.write;
  }
}

function scrubChunk(chunk: unknown): unknown {
  if (typeof chunk === 'string') return scrubProcessSecrets(chunk);
  if (chunk instanceof Uint8Array) {
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    const clean = scrubProcessSecrets(text);
    return clean === text ? chunk : Buffer.from(clean, 'utf8');
  }
  return chunk;
}
