import { APIConnectionError, APIConnectionTimeoutError, InternalServerError } from '@anthropic-ai/sdk/core/error';
import { describe, expect, it } from 'vitest';
import { describeFailure, failureField, failureReason } from './failure-reason.js';

describe('failureReason', () => {
  it("keeps the server's own words, not the SDK's status-and-JSON framing", () => {
    const error = new InternalServerError(
      502,
      { type: 'error', error: { type: 'api_error', message: 'upstream  went\naway' } },
      undefined,
      new Headers(),
    );
    expect(failureReason(error)).toEqual({
      error_class: 'InternalServerError',
      status: 502,
      message: 'upstream went away',
    });
  });

  it('reads a refused connection from the code of its innermost cause when that has no message', () => {
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    const error = new APIConnectionError({ cause: new TypeError('fetch failed', { cause: refused }) });
    expect(failureReason(error).message).toBe('Connection error. (ECONNREFUSED)');
    expect(failureReason(new APIConnectionTimeoutError()).message).toBe('Request timed out.');
  });

  it('cuts a long message (a proxy error page) to 500 characters', () => {
    const message = failureReason(new Error('x'.repeat(2000))).message;
    expect(message).toHaveLength(500);
    expect(message.endsWith('…')).toBe(true);
  });

  it('reads in one line with its status, or says there was none', () => {
    expect(describeFailure({ error_class: 'AuthenticationError', status: 401, message: 'invalid x-api-key' })).toBe(
      'AuthenticationError (HTTP 401): invalid x-api-key',
    );
    expect(describeFailure(failureReason(new APIConnectionTimeoutError()))).toBe(
      'APIConnectionTimeoutError (no HTTP status): Request timed out.',
    );
  });

  it('is a record field only on a run an error ended', () => {
    expect(failureField({ kind: 'failed', reason: 'model call failed', error: new Error('boom') })).toEqual({
      failure_reason: { error_class: 'Error', status: null, message: 'boom' },
    });
    expect(failureField({ kind: 'failed', reason: 'a peer gave up' })).toEqual({});
    expect(failureField({ kind: 'completed', finalText: 'done' })).toEqual({});
  });
});
