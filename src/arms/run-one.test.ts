import { APIConnectionError, AuthenticationError } from '@anthropic-ai/sdk/core/error';
import { describe, expect, it } from 'vitest';
import type { ModelClient } from '../model/model-client.js';
import { loadScenario } from '../scenarios/loader.js';
import { resolveArms } from './arms.js';
import { runOne } from './run-one.js';
import { clientModel } from '../run/model-source.js';

const scenario = loadScenario('lookup-readonly');
const [none, recover] = resolveArms(['none', 'recover']);

/** A real model's client that never answers: every call rejects with `error()`. */
function refusing(error: () => unknown): ModelClient {
  return {
    name: 'anthropic:refusing',
    create: () => Promise.reject(error()),
  };
}

const unauthorized = () =>
  new AuthenticationError(
    401,
    { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    undefined,
    new Headers(),
  );

describe('a failed run says why in its record', () => {
  it('keeps the class, HTTP status and message of the error that ended it', async () => {
    const { record } = await runOne({
      sweepSeed: 0,
      scenario,
      arm: none!,
      seed: 1,
      model: clientModel(refusing(unauthorized), 'claude-haiku-4-5'),
    });
    expect(record.outcome).toBe('failed');
    expect(record.failure_reason).toEqual({
      error_class: 'AuthenticationError',
      status: 401,
      message: 'invalid x-api-key',
    });
    // Appended last, so every field before it keeps its place.
    expect(Object.keys(record).at(-1)).toBe('failure_reason');
  });

  it('names what refused a connection, with no status, after recovery gave up', async () => {
    const refused = () => {
      const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
      return new APIConnectionError({ cause: new TypeError('fetch failed', { cause }) });
    };
    const { record } = await runOne({
      sweepSeed: 0,
      scenario,
      arm: recover!,
      seed: 1,
      model: clientModel(refusing(refused), 'claude-haiku-4-5'),
    });
    expect(record.failure_reason).toEqual({
      error_class: 'APIConnectionError',
      status: null,
      message: 'Connection error. (connect ECONNREFUSED 127.0.0.1:9)',
    });
  });

  it('leaves the field out of a run that did not fail, so its bytes stay as they were', async () => {
    const { record } = await runOne({ sweepSeed: 0, scenario, arm: none!, seed: 1 });
    expect(record.outcome).not.toBe('failed');
    expect('failure_reason' in record).toBe(false);
  });

  it('gives a simulated model fault the same reason (the SDK error the fault endpoint raises)', async () => {
    const outage = loadScenario('model-outage');
    const { record } = await runOne({ sweepSeed: 0, scenario: outage, arm: none!, seed: 1 });
    expect(record.outcome).toBe('failed');
    expect(record.failure_reason?.error_class).toMatch(/Error$/);
    expect(record.failure_reason?.status).toBeGreaterThanOrEqual(400);
  });
});
