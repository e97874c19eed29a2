import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, peerArm, type Arm } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { loadScenario, type Scenario } from '../scenarios/loader.js';
import type { PeerSetting } from './peer-setting.js';

// lookup-readonly without tool faults: no error wording differs between loops, so every
// loop that sends the model the same transcript gets the same calls back.
const base = loadScenario('lookup-readonly');
const calm: Scenario = { ...base, faults: { ...base.faults, rates: {}, tools: {} } };
const SEEDS = [1, 3, 5];

async function records(arm: Arm, scenario = calm, seeds = SEEDS): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for (const seed of seeds) out.push((await runOne({ sweepSeed: 0, scenario, arm, seed })).record);
  return out;
}

const pick = (
  rows: readonly RunRecord[],
  field: 'tool_calls' | 'tool_executions' | 'model_calls' | 'outcome' | 'verdict' | 'input_tokens',
) => rows.map((row) => row[field]);

function tuned(name: string, settings: Partial<PeerSetting>): Arm {
  const arm = peerArm(name);
  return { ...arm, peer: { ...arm.peer, ...settings } as PeerSetting };
}

describe('peer adapters on a scenario without faults', () => {
  it('our loop (none): the reference counts', async () => {
    const none = await records(ARM_PRESETS.get('none')!);
    expect(pick(none, 'tool_calls')).toEqual([2, 13, 14]);
    expect(pick(none, 'model_calls')).toEqual([3, 14, 15]);
  });

  it('peer:vercel-ai sends what our loop sends: the same calls and the same input tokens', async () => {
    const [none, vercel] = [await records(ARM_PRESETS.get('none')!), await records(peerArm('peer:vercel-ai'))];
    expect(pick(vercel, 'tool_calls')).toEqual([2, 13, 14]);
    expect(pick(vercel, 'input_tokens')).toEqual(pick(none, 'input_tokens'));
    expect(pick(vercel, 'verdict')).toEqual(['success', 'success', 'success']);
    expect(vercel.every((row) => row.arm === 'peer:vercel-ai' && row.model === 'simulated-sdk')).toBe(true);
  });

  it('peer:anthropic-tool-runner makes the same calls (over message threads) and completes', async () => {
    const runner = await records(peerArm('peer:anthropic-tool-runner'));
    expect(pick(runner, 'tool_calls')).toEqual([2, 13, 14]);
    expect(pick(runner, 'tool_executions')).toEqual([2, 13, 14]);
    expect(pick(runner, 'model_calls')).toEqual([3, 14, 15]);
    expect(pick(runner, 'outcome')).toEqual(['completed', 'completed', 'completed']);
  });

  it('peer:langchain stops at recursionLimit 25: 13 model calls, the last call written but never run', async () => {
    const chain = await records(peerArm('peer:langchain'));
    expect(pick(chain, 'tool_calls')).toEqual([2, 13, 13]);
    expect(pick(chain, 'tool_executions')).toEqual([2, 12, 12]);
    expect(pick(chain, 'model_calls')).toEqual([3, 13, 13]);
    expect(pick(chain, 'outcome')).toEqual(['completed', 'max_iterations', 'max_iterations']);
  });

  it('peer:openai-agents replays a reply as two assistant messages, so the model sees another transcript; maxTurns 10 ends it', async () => {
    const agents = await records(peerArm('peer:openai-agents'));
    expect(pick(agents, 'tool_calls')).toEqual([2, 2, 10]);
    expect(pick(agents, 'model_calls')).toEqual([3, 3, 10]);
    expect(pick(agents, 'outcome')).toEqual(['completed', 'completed', 'max_iterations']);
    expect(agents.every((row) => row.model === 'simulated-openai-sdk')).toBe(true);
  });
});

describe('peer settings are what the framework is given', () => {
  it('the tool runner stops at max_iterations model calls', async () => {
    const [row] = await records(
      tuned('peer:anthropic-tool-runner', { maxIterations: 1 } as Partial<PeerSetting>),
      calm,
      [3],
    );
    expect([row!.outcome, row!.model_calls, row!.tool_calls, row!.tool_executions]).toEqual([
      'max_iterations',
      1,
      1,
      1,
    ]);
  });

  it('generateText stops at stepCountIs(n)', async () => {
    const [row] = await records(tuned('peer:vercel-ai', { maxSteps: 4 } as Partial<PeerSetting>), calm, [3]);
    expect([row!.outcome, row!.model_calls, row!.tool_calls, row!.tool_executions]).toEqual([
      'max_iterations',
      4,
      4,
      4,
    ]);
  });

  it("LangChain's modelCallLimitMiddleware ends the run at its limit", async () => {
    const [row] = await records(tuned('peer:langchain', { modelCallLimit: 3 } as Partial<PeerSetting>), calm, [3]);
    expect([row!.model_calls, row!.tool_executions]).toEqual([3, 3]);
  });

  it('a tool exception reaches the model in every peer, as a user-thrown Error: faulted runs go on', async () => {
    const flaky = loadScenario('fetch-transform-write');
    for (const name of ['peer:anthropic-tool-runner', 'peer:vercel-ai', 'peer:langchain', 'peer:openai-agents']) {
      const rows = await records(peerArm(name), flaky, [1, 2]);
      for (const row of rows) {
        expect(row.faults.timeout, `${name} seed ${row.seed}`).toBeGreaterThan(0);
        expect(row.outcome, `${name} seed ${row.seed}`).not.toBe('failed');
        expect(row.tool_executions).toBeGreaterThan(row.faults.timeout);
      }
    }
  });
});

describe("a peer's own errors", () => {
  it('give its failed records a failure_reason (class, status, message), as our loop gives its own', async () => {
    const outage = loadScenario('model-outage');
    for (const name of ['peer:anthropic-tool-runner', 'peer:vercel-ai', 'peer:langchain']) {
      const failed = (await records(peerArm(name), outage, [1, 2, 3, 4, 5, 6])).filter(
        (row) => row.outcome === 'failed',
      );
      expect(failed.length, name).toBeGreaterThan(0);
      for (const row of failed) expect(row.failure_reason?.message, name).toMatch(/\S/);
    }
  });
});
