/**
 * What a provider's response headers say about when the next request may go, read into
 * one value. Anthropic sends `anthropic-ratelimit-<kind>-remaining` with an RFC 3339
 * `-reset` time; OpenAI-style servers send `x-ratelimit-remaining-<kind>` with a
 * duration `x-ratelimit-reset-<kind>` ("1s", "6m0s", "20ms"); both may send
 * `retry-after` (seconds or an HTTP date) or `retry-after-ms`.
 */
export interface RateLimitHold {
  /** Epoch milliseconds before which no new request should start. */
  readonly untilMs: number;
  /** The header that asked for it, for the user (never a header value with a secret). */
  readonly header: string;
}

interface LimitPair {
  readonly remaining: string;
  readonly reset: string;
  readonly resetFormat: 'timestamp' | 'duration';
}

/** Requests first: it is the limit the task names; tokens run out the same way. */
const LIMIT_PAIRS: readonly LimitPair[] = [
  {
    remaining: 'anthropic-ratelimit-requests-remaining',
    reset: 'anthropic-ratelimit-requests-reset',
    resetFormat: 'timestamp',
  },
  {
    remaining: 'anthropic-ratelimit-tokens-remaining',
    reset: 'anthropic-ratelimit-tokens-reset',
    resetFormat: 'timestamp',
  },
  {
    remaining: 'anthropic-ratelimit-input-tokens-remaining',
    reset: 'anthropic-ratelimit-input-tokens-reset',
    resetFormat: 'timestamp',
  },
  {
    remaining: 'anthropic-ratelimit-output-tokens-remaining',
    reset: 'anthropic-ratelimit-output-tokens-reset',
    resetFormat: 'timestamp',
  },
  { remaining: 'x-ratelimit-remaining-requests', reset: 'x-ratelimit-reset-requests', resetFormat: 'duration' },
  { remaining: 'x-ratelimit-remaining-tokens', reset: 'x-ratelimit-reset-tokens', resetFormat: 'duration' },
];

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/**
 * An OpenAI-style reset duration in milliseconds: "1s", "6m0s", "1h2m3.5s", "20ms"; a bare
 * number is seconds (some compatible servers send that). Undefined when unreadable.
 */
export function parseResetDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(DURATION_PART)) total += Number(amount) * (UNIT_MS[unit!] ?? 0);
  return total;
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date, as epoch ms. */
function retryAfter(headers: Headers, nowMs: number): RateLimitHold | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms)) && ms.trim() !== '')
    return { untilMs: nowMs + Math.max(0, Number(ms)), header: 'retry-after-ms' };
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return { untilMs: nowMs + Math.max(0, seconds) * 1000, header: 'retry-after' };
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : { untilMs: date, header: 'retry-after' };
}

function exhausted(headers: Headers, pair: LimitPair, nowMs: number): RateLimitHold | undefined {
  const remaining = headers.get(pair.remaining);
  const reset = headers.get(pair.reset);
  if (remaining === null || reset === null || remaining.trim() === '' || Number(remaining) > 0) return undefined;
  if (!Number.isFinite(Number(remaining))) return undefined;
  const untilMs =
    pair.resetFormat === 'timestamp' ? Date.parse(reset) : nowMs + (parseResetDuration(reset) ?? Number.NaN);
  return Number.isNaN(untilMs) ? undefined : { untilMs, header: `${pair.remaining}: 0` };
}

/**
 * The latest time any header asks new requests to wait for, or undefined when the
 * response leaves the way open (a remaining count above 0, or no such headers).
 *
 * @example
 * rateLimitHold(new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s' }), 1000)
 * // { untilMs: 3000, header: 'x-ratelimit-remaining-requests: 0' }
 */
export function rateLimitHold(headers: Headers, nowMs: number): RateLimitHold | undefined {
  let latest: RateLimitHold | undefined = retryAfter(headers, nowMs);
  for (const pair of LIMIT_PAIRS) {
    const hold = exhausted(headers, pair, nowMs);
    if (hold !== undefined && (latest === undefined || hold.untilMs > latest.untilMs)) latest = hold;
  }
  return latest !== undefined && latest.untilMs > nowMs ? latest : undefined;
}

/** What a limit has left until its reset, as a response's headers said. */
export interface RateLimitBudget {
  /** The header it was read from: one budget per header. */
  readonly header: string;
  /** What a request draws from it: one request, or the tokens it sends. */
  readonly unit: 'requests' | 'tokens';
  readonly remaining: number;
  /** Epoch milliseconds when it is full again. */
  readonly untilMs: number;
}

/**
 * The budgets a response reports (`*-remaining` with its reset) that a request's size can
 * be counted against, for pacing the requests that follow: a limit is counted down as
 * requests start, not only waited out once it reads 0. Request limits, and the OpenAI-style
 * token limit (`x-ratelimit-remaining-tokens`), which counts the whole prompt. Anthropic's
 * token limits are left out: they leave prompt-cache reads uncounted for most models,
 * which a request's size cannot tell, and counting them would hold a cached sweep for
 * nothing; they are still waited out at 0 (rateLimitHold). So are output-token limits: a
 * request's output is not known when it starts.
 *
 * @example
 * rateLimitBudgets(new Headers({ 'x-ratelimit-remaining-tokens': '900', 'x-ratelimit-reset-tokens': '6s' }), 0)
 * // [{ header: 'x-ratelimit-remaining-tokens', unit: 'tokens', remaining: 900, untilMs: 6000 }]
 */
export function rateLimitBudgets(headers: Headers, nowMs: number): RateLimitBudget[] {
  const budgets: RateLimitBudget[] = [];
  for (const pair of LIMIT_PAIRS) {
    const counted = pair.remaining.includes('requests') || pair.remaining === 'x-ratelimit-remaining-tokens';
    if (!counted) continue;
    const remaining = headers.get(pair.remaining);
    const reset = headers.get(pair.reset);
    if (remaining === null || reset === null || remaining.trim() === '' || !Number.isFinite(Number(remaining)))
      continue;
    const untilMs =
      pair.resetFormat === 'timestamp' ? Date.parse(reset) : nowMs + (parseResetDuration(reset) ?? Number.NaN);
    if (Number.isNaN(untilMs) || untilMs <= nowMs) continue;
    budgets.push({
      header: pair.remaining,
      unit: pair.remaining.includes('requests') ? 'requests' : 'tokens',
      remaining: Number(remaining),
      untilMs,
    });
  }
  return budgets;
}
