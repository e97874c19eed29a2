import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, noFaults } from '../tools/tool-fault.js';
import { MODEL_FAULT_KINDS, RECORDED_MODEL_FAULT_KINDS, type ModelFaultKind } from '../faults/model-faults.js';
import { COUNTED_EVENTS } from '../results/counted-events.js';
import { isCountedEvent, recordedModelFaults, zeroEventCounts } from './record-counts.js';

describe('run record counts', () => {
  it('start every run from zero, every counted event type in COUNTED_EVENTS order', () => {
    const first = zeroEventCounts();
    first['agent.tool.retry'] += 1;
    const second = zeroEventCounts();
    expect(Object.keys(second)).toEqual([...COUNTED_EVENTS]);
    expect(Object.values(second).every((count) => count === 0)).toBe(true);
  });

  it('count only the counted event types', () => {
    expect(isCountedEvent('agent.tool.retry')).toBe(true);
    expect(isCountedEvent('agent_run.completed')).toBe(true);
    expect(isCountedEvent('agent.model.call')).toBe(false);
    expect(isCountedEvent('agent.tool.result')).toBe(false);
  });

  it('count every fault kind from zero, in FAULT_KINDS order', () => {
    expect(Object.entries(noFaults())).toEqual(FAULT_KINDS.map((kind) => [kind, 0]));
  });

  it('write the model fault kinds in MODEL_FAULT_KINDS order, a stream cut only for a streamed run', () => {
    const counts = Object.fromEntries(MODEL_FAULT_KINDS.map((kind, i) => [kind, i + 1])) as Record<
      ModelFaultKind,
      number
    >;
    expect(Object.entries(recordedModelFaults(counts, false))).toEqual(
      RECORDED_MODEL_FAULT_KINDS.map((kind) => [kind, counts[kind]]),
    );
    expect(Object.entries(recordedModelFaults(counts, true))).toEqual(
      MODEL_FAULT_KINDS.map((kind) => [kind, counts[kind]]),
    );
  });
});
