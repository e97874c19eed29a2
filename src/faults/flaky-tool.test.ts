import { describe, expect, it } from 'vitest';
import { stream, type Rng, type StreamKey } from '../random/streams.js';
import { TOOL_CATALOGUE } from '../scenarios/tool-catalogue.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { createWorld, type Json, type World } from '../tools/world.js';
import {
  NO_FAULTS,
  RATE_FAULT_KINDS,
  type FaultProfile,
  type FaultRates,
  type RateFaultKind,
} from './fault-profile.js';
import { FAULT_KINDS } from '../tools/tool-fault.js';
import { FlakyTool as AnyFlakyTool } from './flaky-tool.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { answeredNow } from '../tools/answered-now.test-helpers.js';

/** The flaky wrapper over the catalogue's synchronous tools, whose answers are values, never promises. */
class FlakyTool extends AnyFlakyTool {
  override execute(input: Record<string, unknown>, world: World, rng: Rng): ToolExecution {
    return answeredNow(super.execute(input, world, rng));
  }
}
import { ToolError } from '../tools/tool-error.js';

function spec(name: string): ToolSpec {
  const found = TOOL_CATALOGUE.get(name);
  if (found === undefined) throw new Error(`no catalogue tool ${name}`);
  return found;
}

const USER = { id: 'u_1042', name: 'Ada  Lovelace', email: 'Ada.Lovelace@Example.COM', plan: 'pro' };
const newWorld = (): World => createWorld({ records: { users: { u_1042: USER } } });
const profile = (rates: FaultRates, extra: Partial<FaultProfile> = {}): FaultProfile => ({
  ...NO_FAULTS,
  rates,
  retryAfterMs: 2000,
  timeoutMs: 10_000,
  ...extra,
});
const KEY: StreamKey = { sweepSeed: 7, scenario: 'flaky-tool-test', runSeed: 3 };

/** An Rng that returns the given draws in order. */
function draws(...values: number[]): Rng {
  let i = 0;
  const next = (): number => {
    const value = values[i++];
    if (value === undefined) throw new Error('out of scripted draws');
    return value;
  };
  return { next, chance: (p) => next() < p, int: (n) => Math.floor(next() * n), pick: (items) => items[0] as never };
}

const REFERENCE: FaultRates = { timeout: 0.3, malformed_json: 0.1, rate_limit: 0.05 };

describe('FlakyTool.faultFor', () => {
  const tool = new FlakyTool(spec('get_user'), profile(REFERENCE));

  it('maps a draw to a fault by cumulative thresholds in RATE_FAULT_KINDS order', () => {
    // The order is what a draw means: a reordering would change every seeded run.
    expect(FAULT_KINDS).toEqual([
      'timeout',
      'connection_refused',
      'rate_limit',
      'server_error',
      'malformed_json',
      'partial_write',
      'unauthorized',
    ]);
    expect(RATE_FAULT_KINDS).toEqual([
      'timeout',
      'connection_refused',
      'rate_limit',
      'server_error',
      'malformed_json',
      'partial_write',
    ]);
    // timeout [0, 0.30), rate_limit [0.30, 0.35), malformed_json [0.35, 0.45), none above.
    expect(tool.faultFor(0)).toBe('timeout');
    expect(tool.faultFor(0.299)).toBe('timeout');
    expect(tool.faultFor(0.3)).toBe('rate_limit');
    expect(tool.faultFor(0.31)).toBe('rate_limit');
    expect(tool.faultFor(0.349)).toBe('rate_limit');
    expect(tool.faultFor(0.36)).toBe('malformed_json');
    expect(tool.faultFor(0.449)).toBe('malformed_json');
    expect(tool.faultFor(0.46)).toBeNull();
    expect(tool.faultFor(0.999)).toBeNull();
  });

  it('uses per-tool rates in place of the scenario-wide rates', () => {
    const perTool = profile(REFERENCE, { tools: { get_user: { server_error: 0.5 } } });
    expect(new FlakyTool(spec('get_user'), perTool).faultFor(0.1)).toBe('server_error');
    expect(new FlakyTool(spec('get_user'), perTool).faultFor(0.6)).toBeNull();
    expect(new FlakyTool(spec('read_result'), perTool).faultFor(0.1)).toBe('timeout');
  });

  it('refuses rates that add up to more than 1', () => {
    expect(() => new FlakyTool(spec('get_user'), profile({ timeout: 0.6, server_error: 0.5 }))).toThrow(RangeError);
    expect(() => new FlakyTool(spec('get_user'), profile({ timeout: 0.6, server_error: 0.5 }))).toThrow(
      'fault rates add up to 1.1, more than 1',
    );
    expect(() => new FlakyTool(spec('get_user'), profile({ timeout: 0.5, server_error: 0.5 }))).not.toThrow();
  });
});

describe('FlakyTool.execute', () => {
  const tool = new FlakyTool(spec('get_user'), profile(REFERENCE));

  it('gives the same decision for the same stream, twice', () => {
    for (let index = 0; index < 50; index++) {
      const first = tool.execute({ user_id: 'u_1042' }, newWorld(), stream(KEY, 'tool:get_user', index));
      const second = tool.execute({ user_id: 'u_1042' }, newWorld(), stream(KEY, 'tool:get_user', index));
      expect(second).toEqual(first);
    }
  });

  it('injects each fault at its rate over 20,000 executions (within 1.5 points)', () => {
    const counts: Record<string, number> = {};
    const world = newWorld();
    const n = 20_000;
    for (let index = 0; index < n; index++) {
      const fault = tool.execute({ user_id: 'u_1042' }, world, stream(KEY, 'tool:get_user', index)).fault ?? 'none';
      counts[fault] = (counts[fault] ?? 0) + 1;
    }
    const expected: Record<RateFaultKind | 'none', number> = {
      timeout: 0.3,
      connection_refused: 0,
      rate_limit: 0.05,
      server_error: 0,
      malformed_json: 0.1,
      partial_write: 0,
      none: 0.55,
    };
    for (const [kind, rate] of Object.entries(expected)) {
      expect(Math.abs((counts[kind] ?? 0) / n - rate), kind).toBeLessThanOrEqual(0.015);
    }
    expect(Object.keys(counts).sort()).toEqual(['malformed_json', 'none', 'rate_limit', 'timeout']);
  });

  it('fails a timeout after the profile timeout, as a transient ToolError', () => {
    const execution = tool.execute({ user_id: 'u_1042' }, newWorld(), draws(0.1));
    expect(execution.kind).toBe('error');
    expect(execution.latencyMs).toBe(10_000);
    expect(execution.fault).toBe('timeout');
    if (execution.kind !== 'error') return;
    expect(execution.error).toBeInstanceOf(ToolError);
    expect(execution.error).toMatchObject({
      code: 'timeout',
      retryable: true,
      message: 'get_user: request timed out after 10000 ms',
    });
  });

  it('carries the retry-after on a 429', () => {
    const execution = tool.execute({ user_id: 'u_1042' }, newWorld(), draws(0.32));
    expect(execution.kind === 'error' ? execution.error : undefined).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterMs: 2000,
      retryable: true,
    });
  });

  it('returns the real body when no fault is drawn', () => {
    const execution = tool.execute({ user_id: 'u_1042' }, newWorld(), draws(0.9));
    expect(execution).toEqual({ kind: 'ok', content: JSON.stringify(USER), latencyMs: 300, fault: null });
  });

  it('malformed_json returns a strict prefix of the real body that does not parse', () => {
    const body = JSON.stringify(USER);
    for (const cutDraw of [0, 0.25, 0.5, 0.75, 0.999]) {
      const execution = tool.execute({ user_id: 'u_1042' }, newWorld(), draws(0.4, cutDraw));
      expect(execution.kind).toBe('ok');
      expect(execution.fault).toBe('malformed_json');
      const content = execution.kind === 'ok' ? execution.content : '';
      expect(content.length).toBeGreaterThan(0);
      expect(content.length).toBeLessThan(body.length);
      expect(body.startsWith(content)).toBe(true);
      expect(() => JSON.parse(content)).toThrow(SyntaxError);
    }
  });

  it('partial_write on write_result applies the write and still returns an error', () => {
    const writer = new FlakyTool(spec('write_result'), profile({ partial_write: 1 }));
    const world = newWorld();
    const execution = writer.execute({ key: 'u_1042', value: { a: 1 } }, world, draws(0.5));

    expect(world.outbox).toEqual([{ key: 'u_1042', value: { a: 1 } }]);
    expect(execution.kind).toBe('error');
    expect(execution.fault).toBe('partial_write');
    expect(execution.kind === 'error' ? execution.error : undefined).toMatchObject({
      code: 'connection_reset',
      retryable: true,
    });
  });

  it('a fault that fails before the handler leaves the world untouched', () => {
    const writer = new FlakyTool(spec('write_result'), profile({ timeout: 1 }));
    const world = newWorld();
    expect(writer.execute({ key: 'u_1042', value: { a: 1 } }, world, draws(0.5)).fault).toBe('timeout');
    expect(world.outbox).toEqual([]);
  });

  it('a handler that rejects its input yields a permanent error, not a thrown exception', () => {
    const execution = tool.execute({ user_id: 'u_9999' }, newWorld(), draws(0.9));
    expect(execution.kind === 'error' ? execution.error : undefined).toMatchObject({
      code: 'not_found',
      status: 404,
      retryable: false,
      message: "no user with id 'u_9999'",
    });
    expect(execution.fault).toBeNull();
  });
});

describe('FlakyTool with a handler that answers no JSON', () => {
  const answering = (value: unknown): ToolSpec => ({ ...spec('get_user'), run: () => value as Json });
  for (const [what, value] of [
    ['undefined (a handler that forgot to return)', undefined],
    ['a function', () => 1],
    ['a BigInt', 1n],
  ] as const) {
    it(`${what} is an error result for the model, charged the tool's latency, never a thrown exception`, () => {
      for (const u of [0.9, 0.4]) {
        // 0.9: no fault; 0.4: malformed_json under REFERENCE, which cuts the body it is handed.
        const execution = new FlakyTool(answering(value), profile(REFERENCE)).execute({}, newWorld(), draws(u, 0.5));
        expect(execution).toMatchObject({ kind: 'error', latencyMs: spec('get_user').latencyMs, fault: null });
        expect(execution.kind === 'error' ? execution.error : undefined).toMatchObject({ code: 'handler_exception' });
      }
    });
  }
});

describe('FlakyTool unauthorized_after', () => {
  const revoked = (after: number, rates: FaultRates = {}): FlakyTool =>
    new FlakyTool(spec('get_user'), profile(rates, { unauthorizedAfter: { get_user: after } }));

  it('answers HTTP 401 from the n-th execution (0-based) on, without running the handler', () => {
    const tool = revoked(2);
    const world = newWorld();
    const kinds = Array.from({ length: 5 }, () => tool.execute({ user_id: 'u_1042' }, world, draws(0.9)));
    expect(kinds.map((execution) => execution.kind)).toEqual(['ok', 'ok', 'error', 'error', 'error']);
    const third = kinds[2];
    expect(third?.fault).toBe('unauthorized');
    expect(third?.kind === 'error' ? third.error : undefined).toMatchObject({
      code: 'unauthorized',
      status: 401,
      retryable: false,
    });
    expect(third?.kind === 'error' ? third.error.message : '').toMatch(/^get_user: HTTP 401 Unauthorized/);
  });

  it('counts every execution, failed ones included, toward the schedule', () => {
    const tool = revoked(1, { timeout: 1 });
    expect(tool.execute({ user_id: 'u_1042' }, newWorld(), draws(0.5)).fault).toBe('timeout');
    expect(tool.execute({ user_id: 'u_1042' }, newWorld(), draws(0.5)).fault).toBe('unauthorized');
  });

  it('a write behind a revoked credential leaves the world untouched', () => {
    const writer = new FlakyTool(
      spec('write_result'),
      profile({ partial_write: 1 }, { unauthorizedAfter: { write_result: 0 } }),
    );
    const world = newWorld();
    expect(writer.execute({ key: 'k', value: { a: 1 } }, world, draws(0.5)).fault).toBe('unauthorized');
    expect(world.outbox).toEqual([]);
  });

  it('still takes exactly one draw per execution for the rate faults', () => {
    let taken = 0;
    const counting: Rng = {
      next: () => (taken++, 0.9),
      chance: () => false,
      int: () => 0,
      pick: (items) => items[0] as never,
    };
    const tool = revoked(1);
    tool.execute({ user_id: 'u_1042' }, newWorld(), counting);
    tool.execute({ user_id: 'u_1042' }, newWorld(), counting);
    expect(taken).toBe(2);
  });

  it('leaves other tools and the drawn faults of earlier executions alone', () => {
    const scheduled = profile(REFERENCE, { unauthorizedAfter: { get_user: 3 } });
    const plain = new FlakyTool(spec('get_user'), profile(REFERENCE));
    const tool = new FlakyTool(spec('get_user'), scheduled);
    for (let index = 0; index < 3; index++) {
      const rng = () => stream(KEY, 'tool:get_user', index);
      expect(tool.execute({ user_id: 'u_1042' }, newWorld(), rng())).toEqual(
        plain.execute({ user_id: 'u_1042' }, newWorld(), rng()),
      );
    }
    expect(new FlakyTool(spec('read_result'), scheduled).execute({ key: 'x' }, newWorld(), draws(0.9)).kind).toBe('ok');
  });
});

describe('FlakyTool shared answers', () => {
  it('meets a fault with one frozen failure, and writes a frozen result out once', () => {
    const shared = profile(REFERENCE);
    const a = new FlakyTool(spec('get_user'), shared).execute({ user_id: 'u_1042' }, newWorld(), draws(0.1));
    const b = new FlakyTool(spec('get_user'), shared).execute({ user_id: 'u_1042' }, newWorld(), draws(0.1));
    expect(b).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a.kind === 'error' && Object.isFrozen(a.error)).toBe(true);

    // createWorld shares the starting records frozen, so get_user answers with the same text object.
    const world = createWorld({ records: { users: { u_1042: USER } } });
    const tool = new FlakyTool(spec('get_user'), shared);
    const first = tool.execute({ user_id: 'u_1042' }, world, draws(0.9));
    const second = tool.execute({ user_id: 'u_1042' }, world, draws(0.9));
    expect(first).toEqual({ kind: 'ok', content: JSON.stringify(USER), latencyMs: 300, fault: null });
    expect(second).toEqual(first);
  });
});

describe('FlakyTool over an asynchronous handler', () => {
  /** The tool with its handler answering through a promise (a throw becomes a rejection). */
  const later = (sync: ToolSpec): ToolSpec => ({
    ...sync,
    run: async (input, world) => {
      await Promise.resolve();
      return sync.run(input, world);
    },
  });

  it('meets each fault kind as the synchronous handler does, with the same draws and the same side effects', async () => {
    for (const fault of FAULT_KINDS) {
      const tool = fault === 'partial_write' ? 'write_result' : 'get_user';
      const input = tool === 'write_result' ? { key: 'u_1042', value: { ok: true } } : { user_id: 'u_1042' };
      const faults =
        fault === 'unauthorized' ? profile({}, { unauthorizedAfter: { [tool]: 0 } }) : profile({ [fault]: 1 });
      const sync = { world: newWorld(), rng: stream(KEY, `tool:${tool}`, 0) };
      const async = { world: newWorld(), rng: stream(KEY, `tool:${tool}`, 0) };
      const expected = new FlakyTool(spec(tool), faults).execute(input, sync.world, sync.rng);
      const answer = new AnyFlakyTool(later(spec(tool)), faults).execute(input, async.world, async.rng);
      expect(expected.fault).toBe(fault);
      // Only a fault that lets the handler run waits for it.
      expect(answer instanceof Promise).toBe(fault === 'malformed_json' || fault === 'partial_write');
      expect(await answer).toEqual(expected);
      expect(async.world.outbox).toEqual(sync.world.outbox);
      // malformed_json cut the body with the same second draw: the streams stand at the same place.
      expect(async.rng.next()).toBe(sync.rng.next());
    }
    const clean = await new AnyFlakyTool(later(spec('get_user')), profile({})).execute(
      { user_id: 'u_1042' },
      newWorld(),
      draws(0.9),
    );
    expect(clean).toEqual(
      new FlakyTool(spec('get_user'), profile({})).execute({ user_id: 'u_1042' }, newWorld(), draws(0.9)),
    );
  });

  it('turns a rejection into the tool error it carries, or a handler exception', async () => {
    const missing = await new AnyFlakyTool(later(spec('get_user')), profile({})).execute(
      { user_id: 'u_9999' },
      newWorld(),
      draws(0.9),
    );
    expect(missing.kind === 'error' && missing.error.code).toBe('not_found');
    const broken: ToolSpec = {
      ...spec('get_user'),
      run: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    const thrown = await new AnyFlakyTool(broken, profile({})).execute({}, newWorld(), draws(0.9));
    expect(thrown).toMatchObject({ kind: 'error', latencyMs: 300, fault: null });
    expect(thrown.kind === 'error' && [thrown.error.code, thrown.error.message]).toEqual([
      'handler_exception',
      "Tool 'get_user' failed: cannot read properties of undefined",
    ]);
  });
});
