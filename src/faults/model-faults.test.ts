import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.js';
import type { StreamKey } from '../random/streams.js';
import {
  MODEL_FAULT_KINDS,
  ModelFaultInjector,
  modelFaultResponse,
  NO_MODEL_FAULTS,
  scriptedModelFaults,
  type ModelFaultKind,
  type ModelFaultProfile,
} from './model-faults.js';

const KEY: StreamKey = { sweepSeed: 0, scenario: 'model-faults-test', runSeed: 11 };
const PRIMARY = 'claude-sonnet-5-5';

/** A transcript at turn `turn`: the prompt, then `turn` assistant/user exchanges. */
function at(turn: number, model = PRIMARY): { model: string; messages: MessageParam[] } {
  const messages: MessageParam[] = [{ role: 'user', content: 'go' }];
  for (let i = 0; i < turn; i++)
    messages.push({ role: 'assistant', content: `step ${i}` }, { role: 'user', content: 'ok' });
  return { model, messages };
}

const profile = (extra: Partial<ModelFaultProfile>): ModelFaultProfile => ({ ...NO_MODEL_FAULTS, ...extra });

/** The faults met by `attempts` attempts at each of `turns` turns of one run. */
function sample(
  p: ModelFaultProfile,
  turns: number,
  attempts: number,
  key: StreamKey = KEY,
): (ModelFaultKind | null)[][] {
  const injector = new ModelFaultInjector(p, key, new VirtualClock());
  return Array.from({ length: turns }, (_, turn) =>
    Array.from({ length: attempts }, () => injector.next(at(turn))?.kind ?? null),
  );
}

/** The same over many runs (4 turns each), for rates. */
function sampleRuns(p: ModelFaultProfile, runs: number, attempts: number): (ModelFaultKind | null)[][] {
  return Array.from({ length: runs }, (_, run) => sample(p, 4, attempts, { ...KEY, runSeed: run })).flat();
}

describe('ModelFaultInjector', () => {
  it('keeps its fault kinds in a fixed order (a draw means the same fault in every version)', () => {
    expect(MODEL_FAULT_KINDS).toEqual([
      'rate_limit',
      'server_error',
      'overloaded',
      'request_too_large',
      'unknown_model',
      'unauthorized',
      'connection_error',
      'timeout',
      'stream_cut',
    ]);
  });

  it('injects nothing, counts nothing and costs no time without rates', () => {
    const clock = new VirtualClock();
    const injector = new ModelFaultInjector(NO_MODEL_FAULTS, KEY, clock);
    for (let turn = 0; turn < 50; turn++) expect(injector.next(at(turn))).toBeNull();
    expect(Object.values(injector.counts)).toEqual(MODEL_FAULT_KINDS.map(() => 0));
    expect(clock.now()).toBe(0);
  });

  it('fails every call at rate 1, with the fault the rate names, and counts it', () => {
    const injector = new ModelFaultInjector(profile({ rates: { overloaded: 1 } }), KEY, new VirtualClock());
    for (let turn = 0; turn < 5; turn++) expect(injector.next(at(turn))?.kind).toBe('overloaded');
    expect(injector.counts.overloaded).toBe(5);
  });

  it('draws first attempts at about the configured rates, split between kinds', () => {
    const firsts = sampleRuns(profile({ rates: { overloaded: 0.2, server_error: 0.1 } }), 1000, 1).map((row) => row[0]);
    const share = (kind: ModelFaultKind | null) => firsts.filter((fault) => fault === kind).length / firsts.length;
    expect(share('overloaded')).toBeGreaterThan(0.17);
    expect(share('overloaded')).toBeLessThan(0.23);
    expect(share('server_error')).toBeGreaterThan(0.08);
    expect(share('server_error')).toBeLessThan(0.12);
  });

  it('decides a fault by (run, turn, attempt) only: the same for the same turn whatever came before', () => {
    const p = profile({ rates: { overloaded: 0.3 }, persistence: 0.5 });
    const whole = sample(p, 30, 3);
    const injector = new ModelFaultInjector(p, KEY, new VirtualClock());
    // Turn 17 asked for on its own gives the same three attempts as within the whole run.
    expect([0, 1, 2].map(() => injector.next(at(17))?.kind ?? null)).toEqual(whole[17]);
    // Another run seed gives other faults.
    expect(sample(p, 30, 3, { ...KEY, runSeed: 12 })).not.toEqual(whole);
  });

  it('makes outages last over retries with the persistence, and draws retries afresh without it', () => {
    const rates = { overloaded: 0.2 };
    const retryFailRate = (persistence: number) => {
      const rows = sampleRuns(profile({ rates, persistence }), 1500, 2).filter((row) => row[0] !== null);
      return rows.filter((row) => row[1] !== null).length / rows.length;
    };
    // Independent attempts: a retry fails at the base rate, 20%.
    expect(retryFailRate(0)).toBeGreaterThan(0.16);
    expect(retryFailRate(0)).toBeLessThan(0.24);
    // persistence 0.7: 0.7 + 0.3 × 0.2 = 76%.
    expect(retryFailRate(0.7)).toBeGreaterThan(0.72);
    expect(retryFailRate(0.7)).toBeLessThan(0.8);
    expect(retryFailRate(1)).toBe(1);
  });

  it('fails only the listed models, so a fallback model gets through', () => {
    const injector = new ModelFaultInjector(
      profile({ rates: { overloaded: 1 }, persistence: 1, models: [PRIMARY] }),
      KEY,
      new VirtualClock(),
    );
    expect(injector.next(at(0))?.kind).toBe('overloaded');
    expect(injector.next(at(0, 'claude-haiku-5-5'))).toBeNull();
    expect(injector.next(at(1, 'claude-haiku-5-5'))).toBeNull();
    expect(injector.counts.overloaded).toBe(1);
  });

  it('charges the run clock what a failed call takes: quick errors, a full timeout', () => {
    const clock = new VirtualClock();
    const timeouts = new ModelFaultInjector(profile({ rates: { timeout: 1 }, timeoutMs: 30_000 }), KEY, clock);
    timeouts.next(at(0));
    expect(clock.now()).toBe(30_000);
    const limited = new ModelFaultInjector(profile({ rates: { rate_limit: 1 } }), KEY, clock);
    limited.next(at(0));
    expect(clock.now()).toBe(30_050);
  });
});

describe('modelFaultResponse', () => {
  const request = at(0);
  const response = (kind: ModelFaultKind) =>
    modelFaultResponse(kind, request, { retryAfterMs: 7500, timeoutMs: 600_000 }, 'req_1');

  it('answers as the Anthropic API does: status, error type and Anthropic error body', () => {
    const expected: Record<string, [number, string]> = {
      rate_limit: [429, 'rate_limit_error'],
      server_error: [500, 'api_error'],
      overloaded: [529, 'overloaded_error'],
      request_too_large: [413, 'request_too_large'],
      unknown_model: [404, 'not_found_error'],
      unauthorized: [401, 'authentication_error'],
    };
    for (const [kind, [status, type]] of Object.entries(expected)) {
      const r = response(kind as ModelFaultKind);
      expect(r).toMatchObject({
        kind: 'http',
        status,
        body: { type: 'error', error: { type } },
        headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
      });
    }
    expect(response('unknown_model')).toMatchObject({ body: { error: { message: `model: ${PRIMARY}` } } });
  });

  it('sends retry-after in whole seconds, rounded up, on a 429 only', () => {
    expect(response('rate_limit')).toMatchObject({ headers: { 'retry-after': '8' } });
    expect(response('overloaded')).not.toHaveProperty('headers.retry-after');
  });

  it('drops the connection or hangs for connection errors and timeouts (no response at all)', () => {
    expect(response('connection_error')).toEqual({
      kind: 'connection_error',
      message: 'read ECONNRESET (api.anthropic.com:443)',
    });
    expect(response('timeout')).toEqual({ kind: 'timeout', message: 'request timed out after 600000 ms' });
  });
});

describe('scriptedModelFaults', () => {
  it('plays its list one request at a time, then lets everything through', () => {
    const faults = scriptedModelFaults(['overloaded', null, 'rate_limit']);
    expect([0, 1, 2, 3].map(() => faults.next(at(0))?.kind ?? null)).toEqual(['overloaded', null, 'rate_limit', null]);
    expect(faults.requests).toHaveLength(4);
  });
});
