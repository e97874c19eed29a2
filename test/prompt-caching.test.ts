import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveArms } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import { VirtualClock } from '../src/clock/virtual-clock.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import type { ModelRequest } from '../src/model/model-client.js';
import { callCost } from '../src/model/model-table.js';
import { PromptCache } from '../src/model/prompt-cache.js';
import { simulatedFetch } from '../src/model/simulated/fetch-endpoint.js';
import { SimulatedModel } from '../src/model/simulated/simulated-model.js';
import { loadScenario } from '../src/scenarios/loader.js';
import { cliAsync, tempDir } from './cli-helpers.js';

const scenario = loadScenario('fetch-transform-write');

describe('prompt caching in our loop and the simulated endpoint', () => {
  it('changes what a run costs and nothing else: the same decisions, tokens and verdicts', async () => {
    const [arm] = resolveArms(['none']);
    let cached = 0;
    let uncached = 0;
    let read = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const on = (await runOne({ sweepSeed: 0, scenario, arm: arm!, seed })).record;
      const off = (await runOne({ sweepSeed: 0, scenario, arm: arm!, seed, promptCache: false })).record;
      const { cost_usd: onCost, cache_read_input_tokens: onRead, cache_creation_input_tokens: onWrite, ...same } = on;
      const {
        cost_usd: offCost,
        cache_read_input_tokens: offRead,
        cache_creation_input_tokens: offWrite,
        ...also
      } = off;
      expect(same).toEqual(also);
      expect(offRead + offWrite).toBe(0);
      expect(onRead + onWrite).toBeLessThanOrEqual(on.input_tokens);
      cached += onCost;
      uncached += offCost;
      read += onRead;
    }
    expect(read).toBeGreaterThan(0);
    expect(cached).toBeLessThan(uncached * 0.6);
  });

  it("reports the cache through the real SDK as the API does, in a reply's usage and a stream's message_start", async () => {
    const model = new SimulatedModel({
      persona: scenario.persona,
      plan: scenario.plan,
      streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 1 },
    });
    const clock = new VirtualClock();
    const client = new AnthropicModelClient({
      apiKey: 'sk-ant-test',
      baseURL: 'http://simulated.invalid',
      fetch: simulatedFetch(model, undefined, undefined, new PromptCache(() => clock.now())),
    });
    const long = `${scenario.prompt}\n${'Background the task depends on. '.repeat(400)}`;
    const request: ModelRequest = {
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      messages: [{ role: 'user', content: long }],
      cache_control: { type: 'ephemeral' },
    };
    const first = await client.create(request);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const answered = first.content.filter((block) => block.type === 'tool_use');
    const second: ModelRequest = {
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content:
            answered.length > 0
              ? answered.map((call) => ({ type: 'tool_result' as const, tool_use_id: call.id, content: 'ok' }))
              : 'Go on.',
        },
      ],
    };
    let started: unknown;
    for await (const event of client.stream!(second)) if (event.type === 'message_start') started = event.message.usage;
    expect(started).toMatchObject({ cache_read_input_tokens: first.usage.cache_creation_input_tokens });
  });

  it('prices reads at a tenth of input and writes at 1.25× (2× for an hour)', () => {
    const model = 'claude-sonnet-4-5'; // $3 in, $15 out per million
    expect(callCost(model, 1_000_000, 0)).toBeCloseTo(3);
    expect(callCost(model, 0, 0, { read: 1_000_000, written5m: 0, written1h: 0 })).toBeCloseTo(0.3);
    expect(callCost(model, 0, 0, { read: 0, written5m: 1_000_000, written1h: 0 })).toBeCloseTo(3.75);
    expect(callCost(model, 0, 0, { read: 0, written5m: 0, written1h: 1_000_000 })).toBeCloseTo(6);
  });

  it('run --no-prompt-cache sends no marks and its replay line says so', async () => {
    const dir = tempDir();
    const off = await cliAsync([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'none',
      '-n',
      '4',
      '-o',
      join(dir, 'off'),
      '--no-prompt-cache',
    ]);
    expect(off.status, off.stderr).toBe(0);
    const runs = readFileSync(join(dir, 'off', 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(runs.every((run) => run.cache_read_input_tokens === 0 && run.cache_creation_input_tokens === 0)).toBe(true);
    expect(off.stdout + off.stderr).toContain('--no-prompt-cache');
  }, 60_000);
});
