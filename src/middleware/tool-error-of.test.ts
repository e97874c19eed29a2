import { describe, expect, it } from 'vitest';
import { ToolError } from '../tools/tool-error.js';
import { toolErrorOf } from './tool-error-of.js';

describe('toolErrorOf', () => {
  it('reads statuses, network codes and timeouts as transient or permanent', () => {
    const cases: Array<[unknown, string, boolean]> = [
      [Object.assign(new Error('slow down'), { status: 429, retryAfterMs: 2000 }), 'rate_limited', true],
      [Object.assign(new Error('boom'), { statusCode: 503 }), 'server_error', true],
      [Object.assign(new Error('nope'), { status: 404 }), 'not_found', false],
      [Object.assign(new Error('reset'), { cause: { code: 'ECONNRESET' } }), 'connection_reset', true],
      [Object.assign(new Error('late'), { name: 'TimeoutError' }), 'timeout', true],
      [Object.assign(new Error('denied'), { code: 'forbidden' }), 'forbidden', false],
      [new Error('no such order'), 'handler_exception', false],
      [Object.assign(new Error('timed out'), { error: new ToolError('timeout', 'timed out') }), 'timeout', true],
      ['a string', 'handler_exception', false],
    ];
    for (const [error, code, retryable] of cases) {
      const read = toolErrorOf(error);
      expect([read.code, read.retryable]).toEqual([code, retryable]);
    }
    expect(toolErrorOf(Object.assign(new Error('x'), { status: 429, retryAfterMs: 2000 })).retryAfterMs).toBe(2000);
  });

  it('reads what a real HTTP client throws: cause chains, undici codes, axios responses, parse errors', () => {
    const cases: Array<[unknown, string, boolean]> = [
      [
        new TypeError('fetch failed', { cause: Object.assign(new Error('hdr'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) }),
        'timeout',
        true,
      ],
      [
        new TypeError('fetch failed', { cause: Object.assign(new Error('body'), { code: 'UND_ERR_BODY_TIMEOUT' }) }),
        'timeout',
        true,
      ],
      [new TypeError('fetch failed', { cause: new Error('other side closed') }), 'connection_reset', true],
      [
        new TypeError('fetch failed', { cause: Object.assign(new Error('dns'), { code: 'EAI_AGAIN' }) }),
        'connection_refused',
        true,
      ],
      [
        new Error('wrapped', { cause: new Error('deeper', { cause: { code: 'ECONNRESET' } }) }),
        'connection_reset',
        true,
      ],
      [
        Object.assign(new Error('Request failed with status code 503'), { response: { status: 503 } }),
        'server_error',
        true,
      ],
      [
        Object.assign(new Error('Request failed with status code 404'), { response: { status: 404 } }),
        'not_found',
        false,
      ],
      [
        (() => {
          try {
            JSON.parse('{"a":');
          } catch (error) {
            return error;
          }
        })(),
        'malformed_response',
        true,
      ],
    ];
    for (const [error, code, retryable] of cases) {
      const read = toolErrorOf(error);
      expect([read.code, read.retryable]).toEqual([code, retryable]);
    }
    const limited = (headers: unknown) =>
      toolErrorOf(Object.assign(new Error('429'), { response: { status: 429, headers } })).retryAfterMs;
    expect(limited({ 'retry-after': '3' })).toBe(3000);
    expect(limited(new Headers({ 'retry-after-ms': '1500' }))).toBe(1500);
    expect(limited({})).toBeUndefined();
  });

  it('reads an abort as a cancellation, never retried, once the run’s signal is aborted', () => {
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(toolErrorOf(abort).code).toBe('timeout');
    const controller = new AbortController();
    controller.abort();
    const read = toolErrorOf(abort, controller.signal);
    expect([read.code, read.retryable]).toEqual(['cancelled', false]);
    expect(toolErrorOf(new Error('whatever the tool threw'), controller.signal).code).toBe('cancelled');
  });

  it('keeps a ToolError as it is', () => {
    const error = new ToolError('timeout', 't');
    expect(toolErrorOf(error)).toBe(error);
  });
});
