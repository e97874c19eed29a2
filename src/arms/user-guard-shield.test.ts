import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenarios/loader.js';
import type { Arm } from './arms.js';
import { runOne } from './run-one.js';
import { importArmGuards } from './user-guards.js';

const dir = mkdtempSync(join(tmpdir(), 'guard-shield-'));

/** A user guard module whose `build` or one hook throws; a plain descriptor, as a module with its own spiralbench makes. */
function guardModule(file: string, guard: string): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    `export default { kind: 'spiralbench.guard', name: 'boom', settings: {}, events: [], defaults: {}, build: () => ${guard} };\n`,
  );
  return path;
}

async function runWith(module: string) {
  const arm: Arm = { name: 'broken', guards: [{ guard: 'boom', module, settings: {} }] };
  await importArmGuards([arm]);
  return runOne({ sweepSeed: 0, scenario: loadScenario('fetch-transform-write'), arm, seed: 3 });
}

describe('a user guard that throws', () => {
  it('in a hook: the run ends failed, naming the guard, with what happened before it counted', async () => {
    const module = guardModule('hook.mjs', `({ name: 'boom', beforeToolCall() { throw new Error('hook boom'); } })`);
    const { record } = await runWith(module);
    expect(record.outcome).toBe('failed');
    expect(record.failure_reason).toEqual({
      error_class: 'GuardThrew',
      status: null,
      message: "guard 'boom' threw: hook boom",
    });
    expect(record.model_calls).toBe(1);
  });

  it('in an async hook that wraps executions, or in build: failed too', async () => {
    const around = guardModule(
      'around.mjs',
      `({ name: 'boom', aroundExecution: async () => { throw new Error('late boom'); } })`,
    );
    expect((await runWith(around)).record.failure_reason?.message).toBe("guard 'boom' threw: late boom");
    const build = join(dir, 'build.mjs');
    writeFileSync(
      build,
      `export default { kind: 'spiralbench.guard', name: 'boom', settings: {}, events: [], defaults: {}, build: () => { throw new Error('no build'); } };\n`,
    );
    const { record } = await runWith(build);
    expect([record.outcome, record.failure_reason?.message, record.model_calls]).toEqual([
      'failed',
      "guard 'boom' threw in build: no build",
      0,
    ]);
  });

  it('a hook that passes on a next() the layer under it fails is not blamed for it', async () => {
    const module = guardModule('passes.mjs', `({ name: 'boom', aroundExecution: (ctx, next) => next() })`);
    const { record } = await runWith(module);
    expect(record.outcome).not.toBe('failed');
  });
});

describe('a user guard whose hooks would silently do nothing', () => {
  it('a synchronous hook that returns a promise, or a decision of no kind it has: the run fails saying so', async () => {
    const promised = guardModule(
      'promised.mjs',
      `({ name: 'boom', async beforeToolCall() { return { kind: 'answer', content: 'Not run.', isError: true }; } })`,
    );
    expect((await runWith(promised)).record.failure_reason?.message).toBe(
      "guard 'boom' threw in beforeToolCall: beforeToolCall returned a promise; it is synchronous: return the decision itself (or undefined), not a promise of it",
    );
    const refused = guardModule('refused.mjs', `({ name: 'boom', beforeToolCall: () => ({ kind: 'refuse' }) })`);
    expect((await runWith(refused)).record.failure_reason?.message).toBe(
      `guard 'boom' threw in beforeToolCall: beforeToolCall returned {"kind":"refuse"}; expected undefined (no decision) or a decision of kind 'answer' or 'stop'`,
    );
  });

  it('a method named like a hook but not one: the run fails before its first model call, naming the hook it meant', async () => {
    const typo = guardModule(
      'typo.mjs',
      `({ name: 'boom', beforeToolcall: () => ({ kind: 'answer', content: 'Not run.', isError: true }), recordToolCall: () => {} })`,
    );
    const { record } = await runWith(typo);
    expect([record.outcome, record.model_calls]).toEqual(['failed', 0]);
    expect(record.failure_reason?.message).toBe(
      "guard 'boom' threw in build: 'beforeToolcall' is no hook a guard has (did you mean 'beforeToolCall'?), so it would never run",
    );
  });
});

describe('a user guard with helper methods, or a falsy no-decision', () => {
  it('runs as before: helpers named near a hook (recordToolCall, _beforeToolCall) are its own, and any falsy value lets the call through', async () => {
    const helpers = guardModule(
      'helpers.mjs',
      `new (class { name = 'boom'; calls = 0; recordToolCall() { this.calls += 1; } afterToolCall() {} describeFailure() {} _beforeToolCall() {} describeErrors() {} beforeToolCall() { this.recordToolCall(); return (this.calls > 1000 ? 1 : 0) && { kind: 'stop', outcome: { kind: 'max_iterations', iterations: 0 } }; } })()`,
    );
    const withHelpers = await runWith(helpers);
    const plain = await runOne({
      sweepSeed: 0,
      scenario: loadScenario('fetch-transform-write'),
      arm: { name: 'broken', guards: [] },
      seed: 3,
    });
    expect(withHelpers.record.failure_reason).toBeUndefined();
    expect({ ...withHelpers.record, arm: '' }).toEqual({ ...plain.record, arm: '' });
    const nullish = guardModule(
      'nullish.mjs',
      `({ name: 'boom', beforeToolCall: () => null, afterToolBatch: () => false })`,
    );
    expect((await runWith(nullish)).record.failure_reason).toBeUndefined();
  });
});
