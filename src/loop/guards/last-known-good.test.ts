import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { changingModelId } from '../../faults/config-change.js';
import {
  type ModelFaultKind,
  type ModelFaultSource,
  ModelFaultInjector,
  NO_MODEL_FAULTS,
  scriptedModelFaults,
} from '../../faults/model-faults.js';
import { FaultyModel } from '../../model/faulty-model.js';
import { DEFAULT_MODEL_ID, type Message } from '../../model/model-client.js';
import { CHEAP_MODEL_ID } from '../../model/model-table.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { Guard } from '../guard.js';
import type { ToolHost } from '../tool-host.js';
import { lastKnownGood } from './last-known-good.js';
import { llmRecovery } from './llm-recovery.js';

const X: Tool = { name: 'x', input_schema: { type: 'object' } };
const host: ToolHost = {
  definitions: [X],
  traits: (name) => (name === 'x' ? { sideEffecting: false, concurrencySafe: true } : undefined),
  execute: () => ({ kind: 'ok', content: '{"ok":true}', latencyMs: 0, fault: null }),
};
/** Three calls of x, then an answer: four model turns. */
const FOUR_TURNS: ScriptedTurn[] = [
  { text: 'Calling x.', calls: [{ name: 'x', input: {} }] },
  { text: 'Again.', calls: [{ name: 'x', input: { n: 2 } }] },
  { text: 'Once more.', calls: [{ name: 'x', input: { n: 3 } }] },
  { text: 'done' },
];
const TYPO = 'claude-sonet-5-5';
const SUMMARY: Message = {
  id: 'msg_summary',
  type: 'message',
  role: 'assistant',
  model: CHEAP_MODEL_ID,
  content: [{ type: 'text', text: 'summary', citations: null }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
} as Message;
const KEY = { sweepSeed: 0, scenario: 'last-known-good-test', runSeed: 1 };

/** A loop whose configuration names the typo from call 2 on, against an endpoint that does not know it. */
async function run(guards: Guard[], faults?: ModelFaultSource, modelId?: () => string) {
  const clock = new VirtualClock();
  const scripted = new ScriptedModel(FOUR_TURNS);
  const source =
    faults ?? new ModelFaultInjector({ ...NO_MODEL_FAULTS, configChange: { atCall: 2, model: TYPO } }, KEY, clock);
  const sent: string[] = [];
  const model = new FaultyModel(scripted, source);
  const events: AgentEvent[] = [];
  const loop = new BudgetedAgentLoop({
    model: {
      name: model.name,
      create: (request, options) => {
        sent.push(request.model);
        // A summary-sized call of the cheap model is answered aside, without taking a scripted turn.
        if (request.model === CHEAP_MODEL_ID && request.max_tokens === 512) return Promise.resolve(SUMMARY);
        return model.create(request, options);
      },
    },
    modelId: modelId ?? changingModelId(DEFAULT_MODEL_ID, { atCall: 2, model: TYPO }),
    tools: host,
    guards,
    clock,
    onEvent: (event) => events.push(event),
  });
  const result = await loop.run('go');
  return { result, sent, events, answered: scripted.requests.map((request) => request.model) };
}

const rolledBack = (events: readonly AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'agent.config.rolled_back' ? [event] : []));

describe('lastKnownGood', () => {
  it('without it, a configuration naming an unknown model fails the run at the first call it makes', async () => {
    const { result, sent } = await run([]);
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      reason: `model call failed: NotFoundError (HTTP 404 not_found_error): model: ${TYPO}`,
    });
    expect(sent).toEqual([DEFAULT_MODEL_ID, TYPO]);
  });

  it('sends the refused call again with the last good configuration, and sets the bad one aside for the run', async () => {
    const { result, sent, events, answered } = await run([lastKnownGood()]);
    expect(result.outcome.kind).toBe('completed');
    // The typo is tried once; after that every call goes out with the configuration that worked.
    expect(sent).toEqual([DEFAULT_MODEL_ID, TYPO, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID]);
    expect(answered).toEqual([DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID]);
    expect(rolledBack(events)).toEqual([
      {
        type: 'agent.config.rolled_back',
        at: expect.any(Number),
        from: TYPO,
        to: DEFAULT_MODEL_ID,
        reason: `NotFoundError (HTTP 404 not_found_error): model: ${TYPO}`,
      },
    ]);
  });

  it('inside recovery, keeps the configured model where recovery alone moves the run to its fallback', async () => {
    const recoverOnly = await run([llmRecovery()]);
    expect(recoverOnly.result.outcome.kind).toBe('completed');
    expect(recoverOnly.answered).toEqual([DEFAULT_MODEL_ID, CHEAP_MODEL_ID, CHEAP_MODEL_ID, CHEAP_MODEL_ID]);

    // The registry's order: the first guard's wrapper is innermost.
    const both = await run([lastKnownGood(), llmRecovery()]);
    expect(both.result.outcome.kind).toBe('completed');
    expect(both.answered).toEqual([DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID]);
    expect(both.events.some((event) => event.type === 'agent.model.fallback')).toBe(false);
  });

  it('passes on a refusal the good configuration meets too: the configuration was not to blame', async () => {
    // Call 2 (the typo) and its resend with the good model are both refused.
    const faults: (ModelFaultKind | null)[] = [null, 'unknown_model', 'unknown_model'];
    const { result, sent, events } = await run([lastKnownGood()], scriptedModelFaults(faults));
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      reason: `model call failed: NotFoundError (HTTP 404 not_found_error): model: ${TYPO}`,
    });
    expect(sent).toEqual([DEFAULT_MODEL_ID, TYPO, DEFAULT_MODEL_ID]);
    expect(rolledBack(events)).toEqual([]);
  });

  it('leaves a transient failure alone, and a refusal before any call has worked', async () => {
    const transient = await run([lastKnownGood()], scriptedModelFaults([null, 'server_error']));
    expect(transient.result.outcome.kind).toBe('failed');
    expect(transient.sent).toEqual([DEFAULT_MODEL_ID, TYPO]);

    const firstCall = await run(
      [lastKnownGood()],
      new ModelFaultInjector({ ...NO_MODEL_FAULTS, configChange: { atCall: 1, model: TYPO } }, KEY, new VirtualClock()),
      changingModelId(DEFAULT_MODEL_ID, { atCall: 1, model: TYPO }),
    );
    expect(firstCall.result.outcome.kind).toBe('failed');
    expect(firstCall.sent).toEqual([TYPO]);
  });

  it('hands a transient failure of the resend on to recovery, which retries the call: rolled back all the same', async () => {
    // Call 2: the typo's 404, then the resend with the good model meets a 500; recovery retries.
    const faults: (ModelFaultKind | null)[] = [null, 'unknown_model', 'server_error', 'unknown_model', null];
    const { result, sent, events } = await run([lastKnownGood(), llmRecovery()], scriptedModelFaults(faults));
    expect(result.outcome.kind).toBe('completed');
    expect(sent.slice(0, 5)).toEqual([DEFAULT_MODEL_ID, TYPO, DEFAULT_MODEL_ID, TYPO, DEFAULT_MODEL_ID]);
    expect(events.some((event) => event.type === 'agent.model.fallback')).toBe(false);
    expect(rolledBack(events)).toHaveLength(1);
  });

  it("keeps only the loop's own calls: a call another guard makes with another model is neither saved nor rolled back", async () => {
    // A guard that makes a summary-like call of its own with the cheap model before each turn's call.
    const summarising: Guard = {
      name: 'summarising',
      aroundModelCall: async (_ctx, request, next) => {
        await next({ ...request, model: CHEAP_MODEL_ID, max_tokens: 512 });
        return next(request);
      },
    };
    const { result, answered, events } = await run([lastKnownGood(), summarising]);
    expect(result.outcome.kind).toBe('completed');
    // The typo is rolled back to the configured model, not to the summaries' model.
    expect(rolledBack(events).map((event) => event.to)).toEqual([DEFAULT_MODEL_ID]);
    expect(answered).toEqual([DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID]);
  });

  it('tries a configuration that changes again: a fixed file is not held to the typo', async () => {
    // Good, typo, typo, then fixed to another model the endpoint knows.
    const configs = [DEFAULT_MODEL_ID, TYPO, TYPO, CHEAP_MODEL_ID];
    let call = 0;
    const { result, answered } = await run([lastKnownGood()], undefined, () => configs[call++] ?? CHEAP_MODEL_ID);
    expect(result.outcome.kind).toBe('completed');
    expect(answered).toEqual([DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, DEFAULT_MODEL_ID, CHEAP_MODEL_ID]);
  });
});
