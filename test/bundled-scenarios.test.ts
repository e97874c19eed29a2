import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import { listScenarioIds, loadScenario } from '../src/scenarios/loader.js';
import { inProcessModel, sdkModel } from '../src/run/model-source.js';

const arms = ['none', 'article'].map((name) => ARM_PRESETS.get(name) as Arm);
const ids = listScenarioIds();

describe('every bundled scenario', () => {
  it.each(ids)('%s runs on the none and article arms, judged on its world', async (id) => {
    const scenario = loadScenario(id);
    for (const arm of arms) {
      for (let seed = 1; seed <= 8; seed++) {
        const { record, result } = await runOne({ sweepSeed: 0, scenario, arm, seed });
        // Without the recovery guard (none and article lack it) an injected model fault ends
        // the run, as does a configuration changed to a model that does not exist (no
        // rollback either), and without the fixup (they lack it too) so does a resumed history the
        // API refuses; nothing else may. Nor, where the scenario's context window is small,
        // a request over it (HTTP 413).
        const label = `${id} ${arm.name} seed ${seed}`;
        if (record.outcome === 'failed')
          expect(result.outcome, label).toMatchObject({ reason: expect.stringMatching(/^model call failed: /) });
        if (scenario.history.length > 0)
          expect(result.outcome, label).toMatchObject({
            kind: 'failed',
            reason: expect.stringMatching(/invalid_request_error/),
          });
        else if (scenario.modelFaults.configChange !== null)
          // A configuration that names a model the API does not know fails the first call it makes.
          expect(result.outcome, label).toMatchObject({
            kind: 'failed',
            reason: expect.stringContaining(
              `HTTP 404 not_found_error): model: ${scenario.modelFaults.configChange.model}`,
            ),
          });
        else if (Object.keys(scenario.modelFaults.rates).length === 0 && scenario.contextWindow === null)
          expect(record.outcome, label).not.toBe('failed');
        else if (record.outcome === 'failed' && Object.keys(scenario.modelFaults.rates).length === 0)
          expect(result.outcome, label).toMatchObject({
            reason: expect.stringContaining('HTTP 413 request_too_large'),
          });
        if (record.outcome !== 'failed') expect(record.tool_calls).toBeGreaterThan(0);
        // The budget runs no call past its ceiling; one turn of parallel calls may ask for a few more.
        if (arm.name === 'article')
          expect(record.tool_calls).toBeLessThanOrEqual(scenario.toolBudget + scenario.persona.parallel.max_calls - 1);
        // An impossible task is never judged a success, whatever the run wrote or said.
        if (scenario.impossible) expect(record.verdict).not.toBe('success');
        expect(result.messages[0]).toEqual(scenario.history[0] ?? { role: 'user', content: scenario.prompt });
      }
    }
  });

  it.each(ids)('%s gives the same record in-process and through the real SDK', async (id) => {
    const scenario = loadScenario(id);
    for (const arm of arms) {
      const direct = await runOne({ sweepSeed: 0, scenario, arm, seed: 3, model: inProcessModel() });
      const viaSdk = await runOne({ sweepSeed: 0, scenario, arm, seed: 3, model: sdkModel() });
      const transcript = (messages: readonly MessageParam[]) => JSON.stringify(messages);
      expect(transcript(viaSdk.result.messages)).toBe(transcript(direct.result.messages));
      expect({ ...viaSdk.record, model: 'x' }).toEqual({ ...direct.record, model: 'x' });
    }
  });
});

describe('the scenario library', () => {
  it('reaches the outcome each scenario is about somewhere in 40 seeds of the none arm', async () => {
    // Each scenario's fault must be able to bite: a scenario whose fault never shows up,
    // or whose check can never pass, would measure nothing.
    const verdicts = async (id: string, arm = 'none'): Promise<Set<string>> => {
      const scenario = loadScenario(id);
      const seen = new Set<string>();
      for (let seed = 1; seed <= 40; seed++)
        seen.add((await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get(arm) as Arm, seed })).record.verdict);
      return seen;
    };
    expect(await verdicts('send-email-partial-write')).toContain('harmful');
    expect(await verdicts('lookup-readonly')).toContain('success');
    expect(await verdicts('dead-end-search', 'article')).toContain('escalated');
    expect(await verdicts('auth-revoked-mid-task', 'article')).toContain('escalated');
  });

  it('lets model faults bite without recovery, and the recovery guard ride them out', async () => {
    const tally = async (id: string, arm: string) => {
      const scenario = loadScenario(id);
      const records = [];
      for (let seed = 1; seed <= 40; seed++)
        records.push((await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get(arm) as Arm, seed })).record);
      return {
        failed: records.filter((record) => record.outcome === 'failed').length,
        faults: records.reduce((sum, record) => sum + Object.values(record.model_faults).reduce((a, b) => a + b, 0), 0),
        fallbacks: records.reduce((sum, record) => sum + record.events['agent.model.fallback'], 0),
      };
    };
    for (const id of ['model-outage', 'model-rate-limit-storm']) {
      const none = await tally(id, 'none');
      expect(none.faults, id).toBeGreaterThan(0);
      expect(none.failed, id).toBeGreaterThan(10);
      expect((await tally(id, 'recover')).failed, id).toBeLessThan(none.failed);
    }
    // The outage spares the fallback model: the guard switches to it, and it answers.
    expect((await tally('model-outage', 'recover')).fallbacks).toBeGreaterThan(0);
  });

  it('records the 401s of a revoked credential as injected faults', async () => {
    const scenario = loadScenario('auth-revoked-mid-task');
    const { record } = await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get('none') as Arm, seed: 1 });
    expect(record.faults.unauthorized).toBeGreaterThan(0);
    expect(record.verdict).toBe('failure');
  });

  const records = async (id: string, arm: string, seeds: number) => {
    const scenario = loadScenario(id);
    const out = [];
    for (let seed = 1; seed <= seeds; seed++)
      out.push((await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get(arm) as Arm, seed })).record);
    return out;
  };
  const successes = (list: { verdict: string }[]) => list.filter((record) => record.verdict === 'success').length;

  it('resumes a broken history only with the fixup: refused (400) every time without it, repaired once with it', async () => {
    const without = await records('resumed-broken-history', 'none', 20);
    expect(without.every((record) => record.outcome === 'failed' && record.model_calls === 0)).toBe(true);
    const fixed = await records('resumed-broken-history', 'fixup', 20);
    expect(fixed.every((record) => record.outcome !== 'failed' && record.events['agent.messages.fixed'] === 1)).toBe(
      true,
    );
    expect(successes(fixed)).toBeGreaterThan(15);
  });

  it('breaks search thrash with loop detection: warnings fire, and more runs find the order', async () => {
    const none = await records('search-thrash', 'none', 60);
    const loops = await records('search-thrash', 'loops', 60);
    expect(none.every((record) => record.events['agent.loop.detected'] === 0)).toBe(true);
    expect(loops.filter((record) => record.events['agent.loop.detected'] > 0).length).toBeGreaterThan(30);
    expect(successes(loops)).toBeGreaterThan(successes(none) + 10);
  });

  it('long-research outgrows its window without compaction, and compaction saves runs; pinning spares re-fetches', async () => {
    const scenario = loadScenario('long-research');
    const tally = async (arm: string) => {
      const records = [];
      for (let seed = 1; seed <= 20; seed++)
        records.push((await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get(arm) as Arm, seed })).record);
      return {
        success: records.filter((record) => record.verdict === 'success').length,
        tooLarge: records.filter((record) => record.outcome === 'failed').length,
        refetches: records.reduce((sum, record) => sum + record.refetch_calls, 0),
        compactions: records.reduce((sum, record) => sum + record.events['agent.compaction.run'], 0),
      };
    };
    const none = await tally('none');
    expect(none.success).toBe(0);
    expect(none.tooLarge).toBeGreaterThan(10);
    const pinned = await tally('compact');
    const unpinned = await tally('compact-nopin');
    expect(pinned.success).toBeGreaterThan(5);
    expect(pinned.compactions).toBeGreaterThan(20);
    expect(unpinned.refetches).toBeGreaterThan(pinned.refetches);
  });

  it('compacts identically in-process and through the real SDK: summaries, 413s and all', async () => {
    const scenario = loadScenario('long-research');
    for (const arm of ['compact', 'all']) {
      const direct = await runOne({
        sweepSeed: 0,
        scenario,
        arm: ARM_PRESETS.get(arm) as Arm,
        seed: 2,
        model: inProcessModel(),
      });
      const viaSdk = await runOne({
        sweepSeed: 0,
        scenario,
        arm: ARM_PRESETS.get(arm) as Arm,
        seed: 2,
        model: sdkModel(),
      });
      expect(direct.record.events['agent.compaction.run'], arm).toBeGreaterThan(0);
      expect(JSON.stringify(viaSdk.result.messages)).toBe(JSON.stringify(direct.result.messages));
      expect({ ...viaSdk.record, model: 'x' }).toEqual({ ...direct.record, model: 'x' });
    }
  });

  it("prices every run at the model table: the primary model's calls at its price, summary calls at the cheap model's", async () => {
    const reference = (
      await runOne({
        sweepSeed: 0,
        scenario: loadScenario('fetch-transform-write'),
        arm: ARM_PRESETS.get('none') as Arm,
        seed: 1,
        // List prices alone: the prompt cache's prices are tested in test/prompt-caching.test.ts.
        promptCache: false,
      })
    ).record;
    expect(reference.cost_usd).toBe(Math.round(reference.input_tokens * 3 + reference.output_tokens * 15) / 1e6);
    const compacted = (
      await runOne({
        sweepSeed: 0,
        scenario: loadScenario('long-research'),
        arm: ARM_PRESETS.get('compact') as Arm,
        seed: 1,
        promptCache: false,
      })
    ).record;
    expect(compacted.events['agent.compaction.run']).toBeGreaterThan(0);
    const atSonnet = (compacted.input_tokens * 3 + compacted.output_tokens * 15) / 1e6;
    expect(compacted.cost_usd).toBeLessThan(atSonnet);
    expect(compacted.cost_usd).toBeGreaterThan(atSonnet / 3);
  });

  it('keeps the run journal on the record, with the findings of a run that stopped short of the task', async () => {
    const scenario = loadScenario('long-research');
    const records = [];
    for (let seed = 1; seed <= 10; seed++)
      records.push((await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get('all') as Arm, seed })).record);
    // Halted before the synthesis was written (here: it asked a person), its findings are still on the record.
    const halted = records.find((record) => record.outcome !== 'completed' && record.verdict !== 'success');
    expect(halted).toBeDefined();
    expect(halted?.journal?.verified_findings.length).toBeGreaterThan(0);
    expect(halted?.journal?.verified_findings[0]).toMatch(
      /^read_source \{"source_id":"src_0\d"\} succeeded: \{.*"key_finding":/,
    );
    expect(
      (await runOne({ sweepSeed: 0, scenario, arm: ARM_PRESETS.get('compact') as Arm, seed: 1 })).record.journal,
    ).toBeNull();
  });

  it('context-pressure-spiral: a long read is not a spiral, so the ladder starts again at R1 and the journal carries the notes', async () => {
    const scenario = loadScenario('context-pressure-spiral');
    const rungs: number[][] = [];
    const verdicts: string[] = [];
    for (let seed = 1; seed <= 10; seed++) {
      const seen: number[] = [];
      const { record } = await runOne({
        sweepSeed: 0,
        scenario,
        arm: ARM_PRESETS.get('all') as Arm,
        seed,
        onEvent: (event) => event.type === 'agent.recovery.fired' && seen.push(event.rung),
      });
      rungs.push(seen);
      verdicts.push(record.verdict);
    }
    // Every run outgrows the window more than once; each crossing after new reads is R1 again.
    expect(rungs.every((seen) => seen.length >= 2 && seen.length <= 4 && seen[0] === 1)).toBe(true);
    expect(rungs.filter((seen) => seen.every((rung) => rung === 1)).length).toBeGreaterThanOrEqual(5);
    expect(verdicts.filter((verdict) => verdict === 'success').length).toBeGreaterThanOrEqual(5);
  });
});
