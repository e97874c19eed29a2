import { describe, expect, it } from 'vitest';
import { COUNTED_EVENTS, EventCounts, zeroEventCounts } from './run-record.js';

describe('EventCounts', () => {
  it('counts the counted event types, passes over the others, and writes every counted type in COUNTED_EVENTS order', () => {
    const counts = new EventCounts();
    counts.see('agent_run.started');
    counts.see('agent.model.call');
    counts.see('agent.tool.retry');
    counts.see('agent.tool.result');
    counts.see('agent.tool.retry');
    counts.see('agent_run.completed');
    const record = counts.toRecord();
    expect(Object.keys(record)).toEqual([...COUNTED_EVENTS]);
    expect(record).toEqual({ ...zeroEventCounts(), 'agent_run.started': 1, 'agent.tool.retry': 2, 'agent_run.completed': 1 });
  });

  it('starts each run from zero', () => {
    new EventCounts().see('agent.tool.retry');
    expect(new EventCounts().toRecord()).toEqual(zeroEventCounts());
  });
});
