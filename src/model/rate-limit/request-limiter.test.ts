import { describe, expect, it } from 'vitest';
import { rateLimitedFetch } from './rate-limited-fetch.js';
import { RequestLimiter } from './request-limiter.js';

/** A fake wall clock: sleeping advances it at once, and every sleep is recorded. */
function fakeTime(start = 1_000_000) {
  const time = { now: start, sleeps: [] as number[] };
  return {
    time,
    nowMs: () => time.now,
    sleep: async (ms: number) => {
      time.sleeps.push(ms);
      time.now += ms;
    },
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RequestLimiter', () => {
  it('lets at most `concurrency` requests in flight; a release hands the slot to the next in line', async () => {
    const { nowMs, sleep } = fakeTime();
    const limiter = new RequestLimiter({ concurrency: 2, nowMs, sleep });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    let third = false;
    const c = limiter.acquire().then((release) => {
      third = true;
      return release;
    });
    await tick();
    expect(third).toBe(false);
    expect(limiter.inFlight).toBe(2);
    a();
    a(); // a second release of the same slot changes nothing
    const releaseC = await c;
    expect(third).toBe(true);
    expect(limiter.inFlight).toBe(2);
    b();
    releaseC();
    expect(limiter.inFlight).toBe(0);
  });

  it('holds new requests until the reset once a response says none remain', async () => {
    const { time, nowMs, sleep } = fakeTime();
    const holds: string[] = [];
    const limiter = new RequestLimiter({
      concurrency: 4,
      nowMs,
      sleep,
      onHold: (hold) => holds.push(`${hold.header} ${hold.waitMs}`),
    });
    (await limiter.acquire())();
    expect(time.sleeps).toEqual([]);
    limiter.observe(new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s' }));
    const started = time.now;
    (await limiter.acquire())();
    expect(time.sleeps).toEqual([2000]);
    expect(time.now - started).toBe(2000);
    expect(holds).toEqual(['x-ratelimit-remaining-requests: 0 2000']);
    // The reset passed: the next request goes at once.
    (await limiter.acquire())();
    expect(time.sleeps).toEqual([2000]);
  });

  it('waits longer when a response seen during the hold pushes it further', async () => {
    const time = { now: 0, sleeps: [] as number[] };
    const limiter: RequestLimiter = new RequestLimiter({
      nowMs: () => time.now,
      sleep: async (ms) => {
        time.sleeps.push(ms);
        // A request already in flight answers with retry-after 5 while this one sleeps.
        if (time.sleeps.length === 1) limiter.observe(new Headers({ 'retry-after': '5' }));
        time.now += ms;
      },
    });
    limiter.observe(new Headers({ 'retry-after': '1' }));
    (await limiter.acquire())();
    expect(time.sleeps).toEqual([1000, 4000]);
    expect(time.now).toBe(5000);
  });

  it('caps one hold at maxHoldMs, so a far reset cannot stall the sweep silently', async () => {
    const { time, nowMs, sleep } = fakeTime(0);
    const limiter = new RequestLimiter({ nowMs, sleep, maxHoldMs: 30_000 });
    limiter.observe(
      new Headers({
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': new Date(3_600_000).toISOString(),
      }),
    );
    (await limiter.acquire())();
    expect(time.sleeps).toEqual([30_000]);
  });

  it('refuses a concurrency below 1', () => {
    expect(() => new RequestLimiter({ concurrency: 0 })).toThrow(RangeError);
  });
});

describe('rateLimitedFetch', () => {
  it('reads every response, a 429 included, and holds the next request for its retry-after', async () => {
    const { time, nowMs, sleep } = fakeTime();
    const limiter = new RequestLimiter({ concurrency: 1, nowMs, sleep });
    const sent: number[] = [];
    const answers = [
      new Response('{}', { status: 429, headers: { 'retry-after': '3' } }),
      new Response('{}', { status: 200 }),
    ];
    const fetch = rateLimitedFetch(limiter, async () => {
      sent.push(time.now);
      return answers.shift()!;
    });
    expect((await fetch('http://127.0.0.1/v1/chat/completions', { method: 'POST' })).status).toBe(429);
    expect((await fetch('http://127.0.0.1/v1/chat/completions', { method: 'POST' })).status).toBe(200);
    expect(sent[1]! - sent[0]!).toBe(3000);
    expect(limiter.inFlight).toBe(0);
  });

  it('frees the slot when the request fails', async () => {
    const limiter = new RequestLimiter({ concurrency: 1, ...fakeTime() });
    const fetch = rateLimitedFetch(limiter, () => Promise.reject(new TypeError('fetch failed')));
    await expect(fetch('http://127.0.0.1:9/v1')).rejects.toThrow('fetch failed');
    expect(limiter.inFlight).toBe(0);
  });

  it('counts a limit down as requests start, and holds the one it cannot cover until the reset (a token bucket)', async () => {
    const { time, nowMs, sleep } = fakeTime();
    const holds: string[] = [];
    const limiter = new RequestLimiter({ concurrency: 8, nowMs, sleep, onHold: (hold) => holds.push(hold.header) });
    limiter.observe(
      new Headers({
        'x-ratelimit-remaining-requests': '2',
        'x-ratelimit-reset-requests': '10s',
        'x-ratelimit-remaining-tokens': '1000',
        'x-ratelimit-reset-tokens': '4s',
      }),
    );
    const started = time.now;
    (await limiter.acquire(600))(); // 1 request and 600 tokens: both covered
    expect(time.now).toBe(started);
    (await limiter.acquire(600))(); // 600 more tokens than the 400 left: waits for the token reset
    expect(time.now - started).toBe(4000);
    expect(holds).toEqual(['x-ratelimit-remaining-tokens: 400 left']);
    (await limiter.acquire(10))(); // the request budget is spent (2 drawn): waits for its reset
    expect(time.now - started).toBe(10_000);
    (await limiter.acquire(10))(); // both reset: full again until a response says otherwise
    expect(time.now - started).toBe(10_000);
  });

  it("does not count a request's size against Anthropic's token limits, which leave cache reads out", async () => {
    const { time, nowMs, sleep } = fakeTime(0);
    const limiter = new RequestLimiter({ concurrency: 4, nowMs, sleep });
    limiter.observe(
      new Headers({
        'anthropic-ratelimit-input-tokens-remaining': '1000',
        'anthropic-ratelimit-input-tokens-reset': new Date(30_000).toISOString(),
      }),
    );
    (await limiter.acquire(50_000))(); // a long, mostly cached prompt: sent at once
    expect(time.sleeps).toEqual([]);
  });

  it('sends a request larger than a whole limit once the limit has reset, rather than never', async () => {
    const { time, nowMs, sleep } = fakeTime();
    const limiter = new RequestLimiter({ concurrency: 1, nowMs, sleep });
    limiter.observe(new Headers({ 'x-ratelimit-remaining-tokens': '100', 'x-ratelimit-reset-tokens': '2s' }));
    const started = time.now;
    (await limiter.acquire(5000))();
    expect(time.now - started).toBe(2000);
  });
});
