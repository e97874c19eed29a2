import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.js';
import { type ModelFaultKind, NO_MODEL_FAULTS, scriptedModelFaults } from '../faults/model-faults.js';
import { BudgetedAgentLoop } from '../loop/budgeted-agent-loop.js';
import { llmRecovery } from '../loop/guards/llm-recovery.js';
import { describeModelError } from '../loop/model-errors.js';
import type { ToolHost } from '../loop/tool-host.js';
import { FaultyModel } from '../model/faulty-model.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { CassetteMismatchError, RecordingClient, ReplayingClient } from './cassette-client.js';
import { readCassette } from './cassette-file.js';
import { modelErrorOf, storedModelError } from './model-error-json.js';
import { firstDifference, requestParts } from './request-fingerprint.js';
import { sdkError } from '../model/faulty-model.js';
import { modelFaultResponse, MODEL_FAULT_KINDS } from '../faults/model-faults.js';

const X: Tool = { name: 'x', input_schema: { type: 'object' } };
const host: ToolHost = {
  definitions: [X],
  traits: () => ({ sideEffecting: false, concurrencySafe: true }),
  execute: () => ({ kind: 'ok', content: '{"ok":true}', latencyMs: 10, fault: null }),
};
const tempDir = () => mkdtempSync(join(tmpdir(), 'spiralbench-cassette-'));
const RUN = { scenario: 'tiny', arm: 'recover', seed: 3, member: undefined };

/** One run of the loop over `model`, with recovery, under a fresh clock; the record's figures. */
async function runWith(
  make: (
    clock: VirtualClock,
    counts: Record<ModelFaultKind, number>,
  ) => RecordingClient | ReplayingClient | FaultyModel,
  system = 'Be brief.',
) {
  const clock = new VirtualClock();
  const counts = Object.fromEntries(MODEL_FAULT_KINDS.map((kind) => [kind, 0])) as Record<ModelFaultKind, number>;
  const model = make(clock, counts);
  const result = await new BudgetedAgentLoop({ model, tools: host, system, guards: [llmRecovery()], clock }).run('go');
  return { model, outcome: result.outcome, now: clock.now(), counts, calls: result.metrics.modelCalls };
}

const scripted = () => new ScriptedModel([{ text: 'Calling x.', calls: [{ name: 'x', input: {} }] }, { text: 'done' }]);

describe('cassette clients', () => {
  it('replay what was recorded: the same outcome, virtual time and injected faults, with no model behind', async () => {
    const dir = tempDir();
    const faults = (counts: Record<ModelFaultKind, number>) => {
      const source = scriptedModelFaults(['overloaded', null, 'rate_limit', null], {
        ...NO_MODEL_FAULTS,
        retryAfterMs: 2000,
      });
      // The script injects: count as an injector does, so the cassette sees which call met one.
      return {
        next: (request: Parameters<typeof source.next>[0]) => {
          const fault = source.next(request);
          if (fault !== null) counts[fault.kind] += 1;
          return fault;
        },
      };
    };
    const recorded = await runWith(
      (clock, counts) =>
        new RecordingClient(new FaultyModel(scripted(), faults(counts)), { run: RUN, clock, faultCounts: counts }),
    );
    (recorded.model as RecordingClient).save(dir);
    const replayed = await runWith((clock, counts) =>
      ReplayingClient.open(dir, 'unused', { run: RUN, clock, faultCounts: counts }),
    );
    expect(replayed.outcome).toEqual(recorded.outcome);
    expect(replayed.now).toBe(recorded.now);
    expect(replayed.counts).toEqual(recorded.counts);
    expect(replayed.counts.overloaded).toBe(1);
    expect(readCassette(dir, RUN).exchanges.map((exchange) => exchange.injected)).toEqual([
      'overloaded',
      null,
      'rate_limit',
      null,
    ]);
  });

  it('fail a changed request with the run, the call and the first part that differs', async () => {
    const dir = tempDir();
    const recorded = await runWith(
      (clock, counts) =>
        new RecordingClient(new FaultyModel(scripted(), { next: () => null }), {
          run: RUN,
          clock,
          faultCounts: counts,
        }),
    );
    (recorded.model as RecordingClient).save(dir);
    const replayed = await runWith(
      (clock, counts) => ReplayingClient.open(dir, 'unused', { run: RUN, clock, faultCounts: counts }),
      'Be very brief.',
    );
    expect(replayed.outcome).toMatchObject({
      kind: 'failed',
      error: expect.any(CassetteMismatchError),
      reason: expect.stringContaining(
        'tiny · recover · seed 3, model call 1: the request differs from the recorded one at system',
      ),
    });
    const missing = await runWith((clock, counts) =>
      ReplayingClient.open(tempDir(), 'unused', { run: RUN, clock, faultCounts: counts }),
    );
    expect(missing.outcome).toMatchObject({
      kind: 'failed',
      reason: expect.stringContaining('no cassette for tiny · recover · seed 3'),
    });
  });

  it('keep each model fault as the same SDK error, worded the same', () => {
    for (const kind of MODEL_FAULT_KINDS) {
      const error = sdkError(
        modelFaultResponse(kind, { model: 'm', messages: [] }, { retryAfterMs: 3000, timeoutMs: 1000 }, 'req_1'),
      );
      const again = modelErrorOf(JSON.parse(JSON.stringify(storedModelError(error))));
      expect(again.constructor, kind).toBe(error.constructor);
      expect(describeModelError(again), kind).toBe(describeModelError(error));
    }
  });

  it('name the first part of a request that differs', () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'a' }] };
    expect(firstDifference(requestParts(base), requestParts({ ...base }))).toBeNull();
    expect(firstDifference(requestParts(base), requestParts({ ...base, max_tokens: 20 }))).toBe('max_tokens');
    expect(
      firstDifference(requestParts(base), requestParts({ ...base, messages: [{ role: 'user', content: 'b' }] })),
    ).toBe('messages[0]');
    expect(
      firstDifference(
        requestParts(base),
        requestParts({ ...base, messages: [...base.messages, { role: 'assistant', content: 'c' }] }),
      ),
    ).toBe('messages (1 recorded, 2 sent)');
    expect(firstDifference(requestParts(base), requestParts({ ...base, temperature: 0 } as typeof base))).toBe(
      'another request parameter',
    );
  });
});
