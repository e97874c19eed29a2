import { describe, expect, it } from 'vitest';
import { AGENT_CALL_LIMITS, AgentCallLimitReached, CallLimit } from './call-limit.js';

describe('CallLimit', () => {
  it('lets model requests through in the order they were made, across its turns of the event loop', async () => {
    const limit = new CallLimit();
    const reached: number[] = [];
    const made = Array.from({ length: 300 }, (_, i) =>
      limit.through('model', async () => {
        reached.push(i);
        return i;
      }),
    );
    expect(await Promise.all(made)).toEqual(made.map((_, i) => i));
    expect(reached).toEqual(made.map((_, i) => i));
  });

  it('makes a tool call at once, even while model requests wait for a turn', () => {
    const limit = new CallLimit();
    for (let i = 0; i < 64; i++) void limit.through('model', async () => i);
    let called = false;
    void limit.through('tool', async () => {
      called = true;
    });
    expect(called).toBe(true);
  });

  it('past a limit: rejects reached with the reason, aborts its signal, and parks every later call of either kind', async () => {
    const limit = new CallLimit();
    for (let i = 0; i < AGENT_CALL_LIMITS.tool; i++) await limit.through('tool', async () => i);
    let parked = 0;
    void limit.through('tool', async () => (parked += 1));
    await expect(limit.reached).rejects.toBeInstanceOf(AgentCallLimitReached);
    expect(limit.signal.aborted).toBe(true);
    void limit.through('model', async () => (parked += 1));
    await new Promise(setImmediate);
    expect(parked).toBe(0);
  });
});
