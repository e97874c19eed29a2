import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import type { RunRecord } from '../src/results/run-record-schema.js';
import { loadScenario, type Scenario } from '../src/scenarios/loader.js';

const arm = (name: string) => ARM_PRESETS.get(name) as Arm;

/** A record without what streaming may change: the model's label and the virtual time. */
function decisions(record: RunRecord) {
  const { model: _model, virtual_ms: _ms, model_faults, ...rest } = record;
  const { stream_cut: _cut, ...faults } = model_faults;
  return { ...rest, model_faults: faults };
}

describe('streaming changes timing only: the same seeds give the same runs', () => {
  const scenarios = ['fetch-transform-write', 'research-8-sources', 'model-outage', 'long-output', 'malformed-args'];
  for (const id of scenarios) {
    it(`${id}: same verdicts, calls, tokens and transcripts; never slower`, async () => {
      const scenario = loadScenario(id);
      for (const name of ['none', 'all']) {
        for (const seed of [1, 2, 3]) {
          const plain = await runOne({ sweepSeed: 0, scenario, arm: arm(name), seed });
          const streamed = await runOne({ sweepSeed: 0, scenario, arm: arm(name), seed, stream: true });
          expect(streamed.record.model).toBe(`${plain.record.model}+stream`);
          expect(decisions(streamed.record)).toEqual(decisions(plain.record));
          expect(JSON.stringify(streamed.result.messages)).toBe(JSON.stringify(plain.result.messages));
          expect(streamed.record.virtual_ms).toBeLessThanOrEqual(plain.record.virtual_ms);
          // Non-streaming records keep today's shape: no stream_cut count.
          expect('stream_cut' in plain.record.model_faults).toBe(false);
          expect(streamed.record.model_faults.stream_cut).toBe(0);
        }
      }
    });
  }

  it('research-8-sources saves time: its replies search several sources at once', async () => {
    const scenario = loadScenario('research-8-sources');
    let saved = 0;
    for (const seed of [1, 2, 3]) {
      const plain = await runOne({ sweepSeed: 0, scenario, arm: arm('none'), seed });
      const streamed = await runOne({ sweepSeed: 0, scenario, arm: arm('none'), seed, stream: true });
      saved += plain.record.virtual_ms - streamed.record.virtual_ms;
    }
    expect(saved).toBeGreaterThan(0);
  });
});

describe('stream_cut in a scenario', () => {
  const base = loadScenario('fetch-transform-write');
  const cutting: Scenario = { ...base, modelFaults: { ...base.modelFaults, rates: { stream_cut: 0.15 } } };

  it('cuts streamed runs only; recovery retries each cut (falling back after three), and a recovered run ends as if never cut', async () => {
    let cuts = 0;
    let recovered = 0;
    for (const seed of [1, 2, 3, 4]) {
      const plain = await runOne({ sweepSeed: 0, scenario: cutting, arm: arm('recover'), seed });
      const streamed = await runOne({ sweepSeed: 0, scenario: cutting, arm: arm('recover'), seed, stream: true });
      const cut = streamed.record.model_faults.stream_cut ?? 0;
      cuts += cut;
      expect(plain.result.metrics.modelRetries).toBe(0);
      // Every cut is answered: a retry, a move to the fallback model, or (all spent) the run's failure.
      const failed = streamed.result.outcome.kind === 'failed' ? 1 : 0;
      expect(streamed.result.metrics.modelRetries + streamed.record.events['agent.model.fallback'] + failed).toBe(cut);
      if (failed === 1) continue;
      recovered += cut;
      // The simulated model's reply is a pure function of the request: a retried turn writes the same reply.
      expect(decisions(streamed.record)).toMatchObject({
        verdict: plain.record.verdict,
        tool_calls: plain.record.tool_calls,
        outcome: plain.record.outcome,
      });
      // Each cut costs its second of partial output and the backoff before the retry.
      if (cut > 0) expect(streamed.record.virtual_ms).toBeGreaterThan(plain.record.virtual_ms);
    }
    expect(cuts).toBeGreaterThan(0);
    expect(recovered).toBeGreaterThan(0);
  });

  it('fails a streamed run without recovery at its first cut', async () => {
    const outcomes: string[] = [];
    for (const seed of [1, 2, 3, 4]) {
      const streamed = await runOne({ sweepSeed: 0, scenario: cutting, arm: arm('none'), seed, stream: true });
      if ((streamed.record.model_faults.stream_cut ?? 0) > 0) {
        expect(streamed.result.outcome).toMatchObject({
          kind: 'failed',
          reason: 'model call failed: APIError (stream error overloaded_error): Overloaded',
        });
      }
      outcomes.push(streamed.record.outcome);
    }
    expect(outcomes).toContain('failed');
  });
});
