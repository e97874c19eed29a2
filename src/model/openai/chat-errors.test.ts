import { ContentTooLargeError, RateLimitError } from '@anthropic-ai/sdk/core/error';
import { APIConnectionTimeoutError as AnthropicTimeout } from '@anthropic-ai/sdk/core/error';
import { APIConnectionTimeoutError, BadRequestError, RateLimitError as OpenAIRateLimitError } from 'openai/core/error';
import { describe, expect, it } from 'vitest';
import { anthropicErrorOf, toAnthropicError } from './chat-errors.js';

describe('OpenAI errors at the edge', () => {
  it('a context_length_exceeded 400 is the 413 it means', () => {
    const error = toAnthropicError(
      new BadRequestError(
        400,
        { message: 'too long', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
        undefined,
        new Headers({ 'x-request-id': 'req_1' }),
      ),
    );
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect(error).toMatchObject({ status: 413, type: 'request_too_large', apiMessage: 'too long', requestID: 'req_1' });
  });

  it('a 429 keeps its retry-after, and a timeout stays a timeout', () => {
    const error = toAnthropicError(
      new OpenAIRateLimitError(
        429,
        { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' },
        undefined,
        new Headers({ 'retry-after': '7' }),
      ),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers?.get('retry-after')).toBe('7');
    expect(toAnthropicError(new APIConnectionTimeoutError())).toBeInstanceOf(AnthropicTimeout);
  });

  it('anything else passes through unchanged', () => {
    const other = new Error('boom');
    expect(toAnthropicError(other)).toBe(other);
    expect(anthropicErrorOf(503, undefined, new Headers()).constructor.name).toBe('ServiceUnavailableError');
  });
});
