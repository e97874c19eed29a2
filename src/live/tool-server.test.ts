import { afterEach, describe, expect, it } from 'vitest';
import { answeredNow } from '../tools/answered-now.test-helpers.js';
import { NO_FAULTS, RATE_FAULT_KINDS, type FaultProfile } from '../faults/fault-profile.js';
import { FlakyTool } from '../faults/flaky-tool.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { stream, type StreamKey } from '../random/streams.js';
import { TOOL_CATALOGUE } from '../scenarios/tool-catalogue.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { createWorld, type World } from '../tools/world.js';
import { callToolOverHttp } from './tool-client.js';
import { ToolServer, type ServedCall } from './tool-server.js';

const KEY: StreamKey = { sweepSeed: 0, scenario: 'tool-server-test', runSeed: 5 };
const USERS = {
  records: { users: { u_1042: { id: 'u_1042', name: 'Ada  Lovelace', email: 'Ada.Lovelace@Example.COM' } } },
};
const TIMEOUT_MS = 120;

/** A server whose every execution of every tool draws from the flaky wrapper under `profile`. */
async function serve(
  profile: FaultProfile,
  slowBody = false,
  asyncRun = false,
): Promise<{ base: string; server: ToolServer; world: () => World }> {
  let world = createWorld(USERS);
  const server = new ToolServer({
    openRun(seed) {
      world = createWorld(USERS);
      const tools = new Map(
        [...TOOL_CATALOGUE.values()].map((spec) => [
          spec.definition.name,
          new FlakyTool(asyncRun ? answeringLater(spec) : spec, profile),
        ]),
      );
      const counts = new Map<string, number>();
      return {
        world,
        execute(name, input) {
          const index = counts.get(name) ?? 0;
          counts.set(name, index + 1);
          return tools.get(name)!.execute(input, world, stream({ ...KEY, runSeed: seed }, `tool:${name}`, index));
        },
        slowBody: () => slowBody,
      };
    },
    holdMs: 2000,
  });
  const base = await server.listen();
  await fetch(`${base}/runs/r1?seed=5`, { method: 'PUT' });
  servers.push(server);
  return { base, server, world: () => world };
}

/** The same tool, its handler asynchronous: it answers (or throws) a tick later. */
function answeringLater(spec: ToolSpec): ToolSpec {
  return {
    ...spec,
    run: async (input, world) => {
      await Promise.resolve();
      return spec.run(input, world);
    },
  };
}

const servers: ToolServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The same execution, decided in-process as a virtual run decides it. */
function virtualExecution(
  profile: FaultProfile,
  tool: string,
  input: Record<string, unknown>,
): { execution: ToolExecution; world: World } {
  const world = createWorld(USERS);
  const flaky = new FlakyTool(TOOL_CATALOGUE.get(tool) as ToolSpec, profile);
  return { execution: answeredNow(flaky.execute(input, world, stream(KEY, `tool:${tool}`, 0))), world };
}

const okContent = (execution: ToolExecution) => (execution.kind === 'ok' ? execution.content : null);
const errorCode = (execution: ToolExecution) => (execution.kind === 'error' ? execution.error.code : null);

describe('ToolServer + callToolOverHttp: each seeded fault, rendered at the socket layer, comes back as the virtual run meets it', () => {
  for (const fault of RATE_FAULT_KINDS) {
    it(`${fault}: same fault, same error code, same world`, async () => {
      const profile: FaultProfile = { ...NO_FAULTS, rates: { [fault]: 1 }, retryAfterMs: 2000 };
      const tool = fault === 'partial_write' ? 'write_result' : 'get_user';
      const input = tool === 'write_result' ? { key: 'u_1042', value: { ok: true } } : { user_id: 'u_1042' };
      const { base, world } = await serve(profile);
      const live = await callToolOverHttp(`${base}/runs/r1/tools/${tool}`, tool, input, { timeoutMs: TIMEOUT_MS });
      const virtual = virtualExecution(profile, tool, input);
      expect(virtual.execution.fault).toBe(fault);
      expect(live.fault).toBe(virtual.execution.fault);
      expect(errorCode(live)).toBe(errorCode(virtual.execution));
      if (live.kind === 'error' && virtual.execution.kind === 'error')
        expect(live.error.retryAfterMs).toBe(virtual.execution.error.retryAfterMs);
      // A partial write's side effect happened before the reset, in both modes.
      expect(world().outbox).toEqual(virtual.world.outbox);
    });
  }

  it('an asynchronous handler is awaited and meets each fault as a synchronous one does', async () => {
    for (const fault of RATE_FAULT_KINDS) {
      const profile: FaultProfile = { ...NO_FAULTS, rates: { [fault]: 1 }, retryAfterMs: 2000 };
      const tool = fault === 'partial_write' ? 'write_result' : 'get_user';
      const input = tool === 'write_result' ? { key: 'u_1042', value: { ok: true } } : { user_id: 'u_1042' };
      const { base, world } = await serve(profile, false, true);
      const live = await callToolOverHttp(`${base}/runs/r1/tools/${tool}`, tool, input, { timeoutMs: TIMEOUT_MS });
      const virtual = virtualExecution(profile, tool, input);
      expect([fault, live.fault, errorCode(live)]).toEqual([
        fault,
        virtual.execution.fault,
        errorCode(virtual.execution),
      ]);
      expect(world().outbox).toEqual(virtual.world.outbox);
    }
    const { base } = await serve(NO_FAULTS, false, true);
    const url = `${base}/runs/r1/tools/get_user`;
    const ok = await callToolOverHttp(url, 'get_user', { user_id: 'u_1042' }, { timeoutMs: TIMEOUT_MS });
    // Its latency passed on the real clock: the content is what matters.
    expect(ok).toMatchObject({ kind: 'ok', fault: null });
    expect(ok).toHaveProperty(
      'content',
      okContent(virtualExecution(NO_FAULTS, 'get_user', { user_id: 'u_1042' }).execution),
    );
  });

  it('a timeout rendered as a stalled body is a timeout too', async () => {
    const profile: FaultProfile = { ...NO_FAULTS, rates: { timeout: 1 } };
    const { base } = await serve(profile, true);
    const live = await callToolOverHttp(
      `${base}/runs/r1/tools/get_user`,
      'get_user',
      { user_id: 'u_1042' },
      { timeoutMs: TIMEOUT_MS },
    );
    expect(live.fault).toBe('timeout');
    expect(errorCode(live)).toBe('timeout');
  });

  it('a revoked credential (scheduled 401) and a rejected input (400) keep their permanent codes over HTTP', async () => {
    const profile: FaultProfile = { ...NO_FAULTS, unauthorizedAfter: { get_user: 1 } };
    const { base } = await serve(profile);
    const url = `${base}/runs/r1/tools/get_user`;
    const first = await callToolOverHttp(url, 'get_user', { user_id: 'u_1042' }, { timeoutMs: TIMEOUT_MS });
    const second = await callToolOverHttp(url, 'get_user', { user_id: 'u_1042' }, { timeoutMs: TIMEOUT_MS });
    expect(first).toMatchObject({ kind: 'ok', fault: null });
    expect(second.fault).toBe('unauthorized');
    expect(errorCode(second)).toBe('unauthorized');
    const bad = await callToolOverHttp(
      url.replace('get_user', 'transform_record'),
      'transform_record',
      { record: 42 },
      { timeoutMs: TIMEOUT_MS },
    );
    expect(errorCode(bad)).toBe('invalid_input');
    expect(bad.fault).toBeNull();
  });

  it('closing a run answers its world and the decisions the server made, call by call', async () => {
    const { base } = await serve({ ...NO_FAULTS, rates: { server_error: 1 } });
    await callToolOverHttp(
      `${base}/runs/r1/tools/get_user`,
      'get_user',
      { user_id: 'u_1042' },
      { timeoutMs: TIMEOUT_MS },
    );
    const closed = (await (await fetch(`${base}/runs/r1`, { method: 'DELETE' })).json()) as {
      world: World;
      calls: ServedCall[];
    };
    expect(closed.calls).toEqual([{ tool: 'get_user', fault: 'server_error' }]);
    expect(closed.world.records['users']).toBeDefined();
    expect((await fetch(`${base}/runs/r1/tools/get_user`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
