import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../loop/events.js';
import { SCENARIOS_DIR, type Scenario } from '../scenarios/loader.js';
import { ARM_PRESETS, resolveArms, type Arm } from '../arms/arms.js';
import { createScenarioToolHost } from '../run/scenario-tool-host.js';
import { createWorld } from '../tools/world.js';
import { runOne, type RunSpec } from '../arms/run-one.js';
import { resolveScenarioSource } from '../sweep/scenario-source.js';
import { withAsyncTools } from './async-scenario.js';

const SCENARIOS = readdirScenarios();
const arm = (name: string) => ARM_PRESETS.get(name) as Arm;

/** Every built-in scenario, by id. */
function readdirScenarios(): string[] {
  return readdirSync(SCENARIOS_DIR)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => file.slice(0, -'.yaml'.length));
}

/** A run and everything it told: record, transcript and events, as text to compare whole. */
async function observedRun(spec: RunSpec): Promise<string> {
  const events: AgentEvent[] = [];
  const output = await runOne({ ...spec, onEvent: (event) => events.push(event) });
  return JSON.stringify({ record: output.record, messages: output.result.messages, events, world: output.world });
}

describe('withAsyncTools: every tool answering through a promise', () => {
  it('ends every run exactly as the synchronous tools do: record, transcript, events, world', async () => {
    let compared = 0;
    for (const id of SCENARIOS) {
      const { scenario } = resolveScenarioSource(id);
      const twin = withAsyncTools(scenario);
      for (const name of ['none', 'article', 'all']) {
        for (let seed = 1; seed <= 6; seed++) {
          const spec = { sweepSeed: 0, arm: arm(name), seed };
          expect(await observedRun({ ...spec, scenario: twin })).toBe(await observedRun({ ...spec, scenario }));
          compared += 1;
        }
      }
    }
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(20);
    expect(compared).toBe(SCENARIOS.length * 18);
  });

  it('answers through a promise whenever the handler runs, so the runs above took the asynchronous path', () => {
    const { scenario } = resolveScenarioSource('fetch-transform-write');
    const key = { sweepSeed: 0, scenario: scenario.id, runSeed: 1 };
    const promises = (tools: Scenario) => {
      const host = createScenarioToolHost(tools, createWorld(scenario.world), key);
      return Array.from({ length: 10 }, () => host.execute('get_user', { user_id: 'u_1042' }) instanceof Promise);
    };
    // A fault decided before the handler runs (a timeout) answers at once even for an async tool.
    expect(promises(withAsyncTools(scenario))).toContain(true);
    expect(promises(withAsyncTools(scenario))).toContain(false);
    expect(promises(scenario)).not.toContain(true);
  });

  it('streamed, and in a peer framework, ends as the synchronous tools do too', async () => {
    for (const id of ['fetch-transform-write', 'send-email-partial-write', 'research-8-sources']) {
      const { scenario } = resolveScenarioSource(id);
      for (let seed = 1; seed <= 4; seed++) {
        const streamed = { sweepSeed: 0, arm: arm('article'), seed, stream: true };
        expect(await observedRun({ ...streamed, scenario: withAsyncTools(scenario) })).toBe(
          await observedRun({ ...streamed, scenario }),
        );
      }
    }
    const { scenario } = resolveScenarioSource('fetch-transform-write');
    const [peer] = resolveArms(['peer:anthropic-tool-runner'], '--arms', new Map());
    for (let seed = 1; seed <= 4; seed++) {
      const spec = { sweepSeed: 0, arm: peer as Arm, seed };
      expect(await observedRun({ ...spec, scenario: withAsyncTools(scenario) })).toBe(
        await observedRun({ ...spec, scenario }),
      );
    }
  });
});
