import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { LiveSession } from './live-session.js';
import { runOne } from '../arms/run-one.js';
import { resolveScenarioSource } from '../sweep/scenario-source.js';
import { liveModel } from './model-source.js';

describe('LiveSession: one run over loopback, its tools served in this thread', () => {
  it('meets the virtual run’s faults, ends in the same world, and labels its record live', async () => {
    const { scenario, path } = resolveScenarioSource('fetch-transform-write');
    const arm = ARM_PRESETS.get('article') as Arm;
    const session = new LiveSession({ timeoutMs: 100 });
    try {
      // Seed 4 meets three tool timeouts.
      const spec = { sweepSeed: 0, scenario, arm, seed: 4, scenarioPath: path };
      const live = await runOne({ ...spec, model: liveModel(session) });
      const virtual = await runOne(spec);
      expect(virtual.record.faults.timeout).toBeGreaterThan(0);
      expect(live.record.faults).toEqual(virtual.record.faults);
      expect(live.record.verdict).toBe(virtual.record.verdict);
      expect(live.world).toEqual(virtual.world);
      expect(live.record.model).toBe('simulated-live-http');
      expect(live.record.live).toMatchObject({ mode: 'live', timeout_ms: 100, time_scale: 0.01, fault_mismatches: 0 });
      expect(live.live?.served.map((call) => call.fault)).toEqual(live.live?.client.map((call) => call.fault));
    } finally {
      await session.close();
    }
  });
});
