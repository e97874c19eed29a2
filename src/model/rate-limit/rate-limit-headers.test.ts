import { describe, expect, it } from 'vitest';
import { parseResetDuration, rateLimitHold } from './rate-limit-headers.js';

const NOW = Date.parse('2026-11-22T21:00:00.000Z');

describe('parseResetDuration', () => {
  it('reads the durations OpenAI-style servers send', () => {
    expect(parseResetDuration('1s')).toBe(1000);
    expect(parseResetDuration('6m0s')).toBe(360_000);
    expect(parseResetDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseResetDuration('20ms')).toBe(20);
    expect(parseResetDuration('1m30ms')).toBe(60_030);
    expect(parseResetDuration('2.5')).toBe(2500);
    expect(parseResetDuration('soon')).toBeUndefined();
    expect(parseResetDuration('')).toBeUndefined();
  });
});

describe('rateLimitHold', () => {
  it('holds until the Anthropic reset time when no requests remain', () => {
    const headers = new Headers({
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-11-22T21:00:07Z',
    });
    expect(rateLimitHold(headers, NOW)).toEqual({
      untilMs: NOW + 7000,
      header: 'anthropic-ratelimit-requests-remaining: 0',
    });
  });

  it('leaves the way open while any remain', () => {
    expect(
      rateLimitHold(
        new Headers({
          'anthropic-ratelimit-requests-remaining': '1',
          'anthropic-ratelimit-requests-reset': '2026-11-22T21:00:07Z',
        }),
        NOW,
      ),
    ).toBeUndefined();
    expect(
      rateLimitHold(new Headers({ 'x-ratelimit-remaining-requests': '12', 'x-ratelimit-reset-requests': '3s' }), NOW),
    ).toBeUndefined();
    expect(rateLimitHold(new Headers({ 'content-type': 'application/json' }), NOW)).toBeUndefined();
  });

  it('holds for the OpenAI-style reset duration, requests or tokens', () => {
    expect(
      rateLimitHold(new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m2s' }), NOW),
    ).toEqual({ untilMs: NOW + 62_000, header: 'x-ratelimit-remaining-requests: 0' });
    expect(
      rateLimitHold(new Headers({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '250ms' }), NOW)
        ?.untilMs,
    ).toBe(NOW + 250);
  });

  it('reads retry-after in seconds or as a date, and retry-after-ms first', () => {
    expect(rateLimitHold(new Headers({ 'retry-after': '3' }), NOW)).toEqual({
      untilMs: NOW + 3000,
      header: 'retry-after',
    });
    expect(rateLimitHold(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 21:00:10 GMT' }), NOW)?.untilMs).toBe(
      NOW + 10_000,
    );
    expect(rateLimitHold(new Headers({ 'retry-after': '3', 'retry-after-ms': '1500' }), NOW)).toEqual({
      untilMs: NOW + 1500,
      header: 'retry-after-ms',
    });
  });

  it('takes the latest time any header asks for, and ignores a time already past or unreadable', () => {
    const headers = new Headers({
      'retry-after': '2',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '5s',
    });
    expect(rateLimitHold(headers, NOW)?.untilMs).toBe(NOW + 5000);
    expect(
      rateLimitHold(
        new Headers({
          'anthropic-ratelimit-requests-remaining': '0',
          'anthropic-ratelimit-requests-reset': '2026-11-22T20:59:00Z',
        }),
        NOW,
      ),
    ).toBeUndefined();
    expect(
      rateLimitHold(new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': 'later' }), NOW),
    ).toBeUndefined();
  });
});
