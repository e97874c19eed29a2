import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScenarioToolHost } from '../run/scenario-tool-host.js';
import { loadScenario, SCENARIOS_DIR } from '../scenarios/loader.js';
import { parseYamlInput } from '../scenarios/yaml-input.js';
import { defineTool } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { createWorld, type Json } from '../tools/world.js';
import { UserInputError } from '../user-input-error.js';
import type { FaultsInput } from './fault-profile-file.js';
import { withFaults } from './with-faults.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a key up.',
  input_schema: { type: 'object', properties: { key: { type: 'string' } } },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 100,
  run: (input) => ({ key: String(input['key']), value: 42, padding: 'x'.repeat(40) }),
});

/** What each call came to, in a form two sequences can be compared by. */
const outcome = (execution: ToolExecution): string =>
  execution.kind === 'ok' ? `ok:${execution.fault ?? '-'}:${execution.content}` : `error:${execution.error.message}`;

/** The `faults:` block of a bundled scenario, as written in its file. */
function faultsBlock(id: string): FaultsInput {
  const file = parseYamlInput(readFileSync(join(SCENARIOS_DIR, `${id}.yaml`), 'utf8')) as { faults: FaultsInput };
  return file.faults;
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('withFaults', () => {
  it('draws the same faults for the same seed, call for call, and others for another seed', async () => {
    const profile = { rates: { timeout: 0.3, malformed_json: 0.1, rate_limit: 0.05 } };
    const run = async (seed: number): Promise<string[]> => {
      const flaky = withFaults(lookup, profile, { seed });
      const outcomes: string[] = [];
      for (let i = 0; i < 200; i++) outcomes.push(outcome(await flaky.execute({ key: 'k' })));
      return outcomes;
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
    const faulty = first.filter((entry) => !entry.startsWith('ok:-:')).length;
    // 45% of calls meet a fault; 200 calls land well inside these bounds.
    expect(faulty).toBeGreaterThan(60);
    expect(faulty).toBeLessThan(120);
  });

  it.each([
    ['fetch-transform-write', 'get_user', { user_id: 'u_1042' }],
    ['auth-revoked-mid-task', 'get_order', { order_id: 'o_3101' }],
    ['send-email-partial-write', 'send_email', { to: 'a@b.c', subject: 's', body: 'b' }],
  ])('meets, under a sweep’s key, the faults the %s scenario’s %s met in that run', async (id, name, input) => {
    const scenario = loadScenario(id);
    const spec = scenario.tools.find((tool) => tool.definition.name === name)!;
    const key = { sweepSeed: 3, scenario: id, runSeed: 11 };
    const host = createScenarioToolHost(scenario, createWorld(scenario.world), key);
    const flaky = withFaults(spec, faultsBlock(id), {
      seed: 3,
      scenario: id,
      runSeed: 11,
      world: createWorld(scenario.world),
    });
    for (let i = 0; i < 60; i++)
      expect(outcome(await flaky.execute(input))).toBe(outcome(await host.execute(name, input)));
    expect(flaky.calls).toBe(60);
  });

  it('rejects with the fault’s ToolError, resolves the result otherwise, and rejects a cut-off body as malformed', async () => {
    const timeout = await rejection(withFaults(lookup, { rates: { timeout: 1 }, timeout_ms: 5000 })({ key: 'k' }));
    expect(timeout).toMatchObject({
      code: 'timeout',
      retryable: true,
      message: 'lookup: request timed out after 5000 ms',
    });
    const limited = await rejection(withFaults(lookup, { rates: { rate_limit: 1 }, retry_after_ms: 3000 })({}));
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 3000 });
    await expect(withFaults(lookup, {})({ key: 'k' })).resolves.toEqual({
      key: 'k',
      value: 42,
      padding: 'x'.repeat(40),
    });
    const cut = withFaults(lookup, { rates: { malformed_json: 1 } });
    const execution = await cut.execute({ key: 'k' });
    expect(execution).toMatchObject({ kind: 'ok', fault: 'malformed_json' });
    expect(() => JSON.parse((execution as { content: string }).content)).toThrow();
    expect(await rejection(cut({ key: 'k' }))).toMatchObject({ code: 'malformed_response', retryable: true });
  });

  it('runs the handler on a partial write (the side effect happens) and answers 401 from the scheduled call on', async () => {
    const world = createWorld({ records: {} });
    const save = withFaults(
      (input: { id: string }, w) => {
        w.outbox.push({ key: input.id, value: true });
        return { saved: input.id } as Json;
      },
      { rates: { partial_write: 1 } },
      { name: 'save', world },
    );
    expect(await rejection(save({ id: 'a' }))).toMatchObject({ code: 'connection_reset' });
    expect(world.outbox).toEqual([{ key: 'a', value: true }]);
    const revoked = withFaults(lookup, { tools: { lookup: { unauthorized_after: 2 } } });
    await revoked({});
    await revoked({});
    expect(await rejection(revoked({}))).toMatchObject({ code: 'unauthorized', status: 401, retryable: false });
  });

  it('refuses a bad profile or an unnamed function, naming the field and what was expected', () => {
    const problems = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        if (error instanceof UserInputError) return error.problems;
        throw error;
      }
      throw new Error('accepted');
    };
    expect(problems(() => withFaults(lookup, { rates: { timeout: 1.5 } }))).toEqual([
      {
        source: "withFaults('lookup')",
        field: 'profile.rates.timeout',
        expected: 'Too big: expected number to be <=1',
      },
    ]);
    expect(problems(() => withFaults(lookup, { rates: { timeout: 0.6, server_error: 0.6 } }))[0]).toMatchObject({
      field: 'profile.rates',
      expected: expect.stringContaining('rates that add up to at most 1'),
    });
    expect(problems(() => withFaults(() => null, {}))).toEqual([
      {
        source: 'withFaults',
        field: 'options.name',
        expected: 'a name for an anonymous function (fault messages and `tools:` use it)',
      },
    ]);
  });

  // Needs the host to await a tool's promise (ToolFaults.execute, the async-tools change):
  // until then an async result reaches the body as a promise.
  it('wraps an async function: the fault is drawn before it runs, its resolved value is the result', async () => {
    let ran = 0;
    const getUser = async function getUser(input: { id: string }): Promise<Json> {
      ran += 1;
      await Promise.resolve();
      return { id: input.id, name: 'Ada' };
    };
    const flaky = withFaults(getUser, { rates: { timeout: 0.5 } }, { seed: 7 });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => flaky({ id: 'u_1' })));
    const ok = results.filter((result) => result.status === 'fulfilled');
    expect(ok.length).toBe(ran);
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThan(20);
    for (const result of ok) expect(result.value).toEqual({ id: 'u_1', name: 'Ada' });
  });
});
