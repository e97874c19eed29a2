import type { RequestLimiter } from './request-limiter.js';

/**
 * A `fetch` for a real client (`@anthropic-ai/sdk` or `openai`) that goes through the
 * sweep's limiter: each HTTP request takes a slot and waits out any hold, and every
 * response, a 429 included, tells the limiter what the provider's headers say. At the
 * fetch level both SDKs are served by one piece, and a retry a guard makes is held too.
 */
export function rateLimitedFetch(limiter: RequestLimiter, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const release = await limiter.acquire();
    try {
      const response = await inner(input, init);
      limiter.observe(response.headers);
      return response;
    } finally {
      release();
    }
  };
}
