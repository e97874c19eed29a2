import type { RequestLimiter } from './request-limiter.js';

/**
 * A `fetch` for a real client (`@anthropic-ai/sdk` or `openai`) that goes through the
 * sweep's limiter: each HTTP request takes a slot and waits out any hold, and every
 * response, a 429 included, tells the limiter what the provider's headers say. At the
 * fetch level both SDKs are served by one piece, and a retry a guard makes is held too.
 * A request draws its estimated tokens from the token limits the headers report.
 */
export function rateLimitedFetch(limiter: RequestLimiter, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    // What the request draws from a token limit: its body at about four characters a token.
    const body = typeof init?.body === 'string' ? init.body.length : 0;
    const release = await limiter.acquire(Math.ceil(body / 4));
    try {
      const response = await inner(input, init);
      limiter.observe(response.headers);
      return response;
    } finally {
      release();
    }
  };
}
