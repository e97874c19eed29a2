import { describe, expect, it } from 'vitest';
import { REFLECTION_MESSAGE } from '../loop/guards/repeat-fingerprint.js';
import { carriesNoRetryAdvice, type ResultKind, resultKind } from './result-kind.js';

const error = (text: string) => ({ text, is_error: true });
const kinds = (texts: readonly string[], flagged = true): ResultKind[] =>
  texts.map((text) => resultKind(flagged ? error(text) : { text }));

describe('resultKind', () => {
  it('reads an answer that is not an error as good, JSON or prose', () => {
    expect(kinds(['{"id":"u_1042","name":"Ada Lovelace"}', 'Reservation ABC123 cancelled.', '[]'], false)).toEqual([
      'good',
      'good',
      'good',
    ]);
  });

  it("reads tau-bench's unflagged error strings as errors of the right kind", () => {
    expect(
      kinds(
        [
          'Error: user not found',
          'Error: reservation not found',
          'Error: flight not found',
          'Error: not enough seats on flight',
          'Error: invalid payment method',
        ],
        false,
      ),
    ).toEqual(['permanent', 'permanent', 'permanent', 'error', 'permanent']);
  });

  it('reads raw status lines and their plain messages, in any wording', () => {
    expect(
      kinds([
        'Error: get_order: HTTP 401 Unauthorized (the access token is no longer valid)',
        'HTTP 403 Forbidden',
        '404 Not Found',
        'status 422: the email field is required',
        'Request failed with status code 400',
        'The requested record does not exist.',
        'You do not have permission to read this order.',
        'Validation failed: user_id must match u_[0-9]+',
        'Conflict: a reservation with this id already exists',
        "Error: no user with id 'x'",
        'No order matching o_77',
      ]),
    ).toEqual(Array(11).fill('permanent'));
    expect(
      kinds([
        'Error: get_user: request timed out after 10000 ms',
        'connect ECONNREFUSED 127.0.0.1:8080',
        'read ECONNRESET',
        'Error: search_users: HTTP 429 Too Many Requests (retry-after: 2s)',
        'Rate limit exceeded, slow down',
        'HTTP 503 Service Unavailable',
        'status 500: internal server error',
        'The service is temporarily unavailable',
        'Gateway Timeout',
      ]),
    ).toEqual(Array(9).fill('transient'));
  });

  it("lets explicit advice outrank the status: a harness's classification and its paraphrases", () => {
    expect(
      kinds([
        'Error: Permanent failure: Not found (HTTP 404). Do not retry with the same arguments.',
        'Error: HTTP 503. This error is permanent; retrying will not help.',
        'Error: Network timeout. May succeed if retried.',
        'Error: Network timeout. Transient error — safe to retry.',
        'Error: HTTP 404. A retry might succeed.',
      ]),
    ).toEqual(['permanent', 'permanent', 'transient', 'transient', 'transient']);
    expect(carriesNoRetryAdvice('Permanent failure: not found. Do not retry with the same arguments.')).toBe(true);
    expect(carriesNoRetryAdvice("Don't try again with these arguments, it is pointless to retry")).toBe(true);
    expect(carriesNoRetryAdvice('HTTP 401 Unauthorized')).toBe(false);
  });

  it('reads a body that opens as JSON and does not parse as malformed, and an error saying so', () => {
    expect(kinds(['{"id":"u_1042","na', '[{"id": 1}, {"id"'], false)).toEqual(['malformed', 'malformed']);
    expect(
      kinds([
        'Error: Malformed response: get_user returned a body that is not valid JSON. May succeed if retried.',
        'The upstream response was not valid JSON',
      ]),
    ).toEqual(['malformed', 'malformed']);
  });

  it("reads a harness's refusal to run a repeated call, or a spent budget, in any wording", () => {
    expect(
      kinds([
        REFLECTION_MESSAGE,
        'This call duplicates your previous one and was not executed.',
        'Skipped: you already made this exact call; the result would be the same.',
        'Tool budget exhausted (15 calls); the call was not run.',
        'You have reached the maximum number of tool calls for this task.',
      ]),
    ).toEqual(Array(5).fill('refusal'));
    // A tool's own failure that happens to say "refused" or "limit" is not a harness refusing.
    expect(kinds(['connect ECONNREFUSED: connection refused', 'Rate limit exceeded'])).toEqual([
      'transient',
      'transient',
    ]);
  });

  it('calls any other error an error', () => {
    expect(kinds(['Error: something went wrong', 'Exception in handler'])).toEqual(['error', 'error']);
    expect(kinds(['Traceback (most recent call last): ...'], false)).toEqual(['error']);
  });
});
