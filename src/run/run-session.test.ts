import { describe, expect, it } from 'vitest';
import type { RunMetrics, RunResult } from '../loop/outcome.js';
import { loadScenario } from '../scenarios/loader.js';
import { openRun, type RunEnding } from './run-session.js';

const scenario = loadScenario('fetch-transform-write');

const NO_WORK: RunMetrics = {
  toolCalls: 0,
  toolExecutions: 0,
  toolRetries: 0,
  modelCalls: 1,
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  virtualMs: 0,
  modelRetries: 0,
  costUsd: 0.0000123456,
};

function ending(result: Partial<RunResult> = {}, more: Partial<RunEnding> = {}): RunEnding {
  return {
    result: { outcome: { kind: 'completed', finalText: 'done' }, metrics: NO_WORK, messages: [], ...result },
    model: 'test-model',
    stream: false,
    journal: false,
    ...more,
  };
}

describe('a run session', () => {
  it('judges the world, not the claim: a run that did nothing fails however it ended', () => {
    const { record, verdict } = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 }).finish(ending());
    expect(record.outcome).toBe('completed');
    expect(verdict.verdict).toBe('failure');
    expect(record.verdict).toBe('failure');
  });

  it('writes its record once: a second finish is refused', () => {
    const session = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 });
    session.finish(ending());
    expect(() => session.finish(ending())).toThrow(/none\/1 is already finished/);
  });

  it('writes the ensemble member last, and no member field without one', () => {
    const alone = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 }).finish(ending()).record;
    const cast = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1, member: 3 }).finish(ending()).record;
    expect('member' in alone).toBe(false);
    expect(Object.keys(cast).at(-1)).toBe('member');
    expect(cast.member).toBe(3);
  });

  it('counts guard events heard and reported into one events field; passes every event on', () => {
    const seen: string[] = [];
    const session = openRun({
      sweepSeed: 0,
      scenario,
      arm: 'none',
      seed: 1,
      onEvent: (event) => seen.push(event.type),
    });
    session.hear({ type: 'agent.repeat.blocked', at: 0, tool: 'fetch', fingerprint: 'a' });
    session.report({ type: 'agent.repeat.blocked', at: 0, tool: 'fetch', fingerprint: 'b' });
    session.hear({ type: 'agent.tool.call', at: 0, id: 'c1', tool: 'fetch', input: {} });
    session.report({
      type: 'agent.tool.retry',
      at: 0,
      tool: 'fetch',
      attempt: 1,
      delayMs: 1000,
      error: 'timeout',
    } as never);
    const { record } = session.finish(ending());
    expect(session.toolRetries()).toBe(1);
    expect(record.events['agent.repeat.blocked']).toBe(2);
    expect(record.events['agent.tool.retry']).toBe(1);
    expect(seen).toEqual(['agent.repeat.blocked', 'agent.repeat.blocked', 'agent.tool.call', 'agent.tool.retry']);
  });

  it('keeps the journal only when the ending says a journal guard kept one, and rounds cost to micro-dollars', () => {
    const session = openRun({ sweepSeed: 0, scenario, arm: 'journal', seed: 1 });
    session.journal();
    const kept = session.finish(ending({}, { journal: true })).record;
    expect(kept.journal).not.toBeNull();
    expect(kept.cost_usd).toBe(0.000012);
    const dropped = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 }).finish(ending()).record;
    expect(dropped.journal).toBeNull();
  });

  it('counts stream cuts only for a streamed run', () => {
    const plain = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 }).finish(ending()).record;
    const streamed = openRun({ sweepSeed: 0, scenario, arm: 'none', seed: 1 }).finish(
      ending({}, { stream: true }),
    ).record;
    expect(plain.model_faults).not.toHaveProperty('stream_cut');
    expect(streamed.model_faults).toHaveProperty('stream_cut');
  });
});
