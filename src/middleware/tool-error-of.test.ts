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

  it('keeps a ToolError as it is', () => {
    const error = new ToolError('timeout', 't');
    expect(toolErrorOf(error)).toBe(error);
  });
});
