import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../loop/outcome.js';
import { agentResultOf, outcomeOf } from './agent-result.js';

describe('agentResultOf', () => {
  it('reports every outcome an agent can end in, and outcomeOf reads it back unchanged', () => {
    const outcomes: RunOutcome[] = [
      { kind: 'completed', finalText: 'done' },
      { kind: 'budget_exhausted', finalText: 'summary', toolCalls: 15 },
      { kind: 'timed_out', limit: 'soft', finalText: 'late', elapsedMs: 300_000 },
      { kind: 'escalated', payload: { summary: 's' } },
      { kind: 'max_iterations', iterations: 25 },
      { kind: 'failed', reason: 'model call failed' },
    ];
    for (const outcome of outcomes) expect(outcomeOf(agentResultOf(outcome), 0)).toEqual(outcome);
  });

  it('reports a cancellation as a failure naming it', () => {
    expect(agentResultOf({ kind: 'cancelled', reason: 'aborted' })).toEqual({
      outcome: 'failed',
      reason: 'cancelled: aborted',
    });
  });
});
