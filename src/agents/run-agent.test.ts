import type { Message, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenarios/loader.js';
import type { AgentContext } from './agent-context.js';
import type { AgentReturn } from './agent-result.js';
import { defineAgent } from './define-agent.js';
import { runAgent } from './run-agent.js';
import { AGENT_CALL_LIMITS, AgentCallLimitReached } from './call-limit.js';

const fetchTransformWrite = loadScenario('fetch-transform-write');
const lookup = loadScenario('lookup-readonly');
const calm = { ...lookup, faults: { ...lookup.faults, rates: {}, tools: {} } };

function run(run: (context: AgentContext) => Promise<AgentReturn>, seed = 1, scenario = calm) {
  return runAgent({
    sweepSeed: 0,
    scenario,
    arm: 'agent:test',
    seed,
    agent: defineAgent({ name: 'test', run }),
    settings: {},
  });
}

/** One Messages call over the context's bare fetch, as a client without an SDK would make it. */
async function post(context: AgentContext, messages: MessageParam[]): Promise<Message> {
  const response = await context.fetch(`${context.baseURL.anthropic}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': context.apiKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: context.modelId,
      max_tokens: context.maxTokens,
      system: context.system,
      messages,
      tools: context.tools.anthropic,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Message;
}

describe('runAgent: what is metered at the boundaries', () => {
  it('counts model calls, tokens and the tool calls the model wrote from the wire, for an agent that uses only fetch', async () => {
    const seen: Message[] = [];
    const { record } = await run(async (context) => {
      const messages = context.messages;
      seen.push(await post(context, messages));
      seen.push(await post(context, messages));
      return 'done';
    });
    expect(record.model_calls).toBe(2);
    expect(record.input_tokens).toBe(seen[0]!.usage.input_tokens + seen[1]!.usage.input_tokens);
    expect(record.output_tokens).toBe(seen[0]!.usage.output_tokens + seen[1]!.usage.output_tokens);
    expect(record.tool_calls).toBe(
      seen.flatMap((reply) => reply.content).filter((block) => block.type === 'tool_use').length,
    );
    // Nothing ran: the world is untouched, so the judge says so whatever the agent returned.
    expect([record.tool_executions, record.outcome, record.verdict]).toEqual([0, 'completed', 'failure']);
    expect(record.virtual_ms).toBeGreaterThan(0);
    expect(record.cost_usd).toBeGreaterThan(0);
  });

  it('runs tools against the world through their seeded faults, charging each execution to the clock', async () => {
    const failures: string[] = [];
    const outputs: string[] = [];
    const { record } = await run(
      async ({ tools }) => {
        for (let i = 0; i < 6; i++) {
          try {
            outputs.push(await tools.call('get_user', { user_id: 'u_1042' }));
          } catch (error) {
            failures.push(String(error));
          }
        }
        return { outcome: 'max_iterations' };
      },
      3,
      fetchTransformWrite,
    );
    expect(record.tool_executions).toBe(6);
    // The model wrote none of these: tool_calls counts what the model asked for, on the wire.
    expect([record.tool_calls, record.model_calls, record.outcome]).toEqual([0, 0, 'max_iterations']);
    expect(failures.length + outputs.length).toBe(6);
    expect([failures.length > 0, outputs.length > 0]).toEqual([true, true]);
    // A failure is a plain Error with the tool's own words, never a harness class name.
    for (const failure of failures) expect(failure).toMatch(/^Error: /);
    expect(Object.values(record.faults).reduce((sum, n) => sum + n, 0)).toBe(failures.length);
    expect(record.virtual_ms).toBeGreaterThan(0);
  });

  it('draws the tools’ fault streams in the order calls start, awaited together or one by one', async () => {
    const together = await run(
      async ({ tools }) => {
        const calls = [1041, 1042, 1043, 1042, 1041].map((i) =>
          tools.call('get_user', { user_id: `u_${i}` }).catch(String),
        );
        return (await Promise.all(calls.reverse())).join('|');
      },
      7,
      fetchTransformWrite,
    );
    const inTurn = await run(
      async ({ tools }) => {
        const results: string[] = [];
        for (const i of [1041, 1042, 1043, 1042, 1041])
          results.push(await tools.call('get_user', { user_id: `u_${i}` }).catch(String));
        return results.reverse().join('|');
      },
      7,
      fetchTransformWrite,
    );
    expect(together.record).toEqual(inTurn.record);
    // Some calls failed and some did not, so the order of the draws shows in the text.
    expect(together.result.outcome).toMatchObject({ finalText: expect.stringMatching(/Error: .*\|.*u_/) });
    expect(together.result.outcome).toEqual(inTurn.result.outcome);
  });

  it('an agent that throws is failed, with the error in failure_reason; a returned failure without an error has none', async () => {
    const thrown = await run(async () => {
      throw new TypeError('cannot read the plan');
    });
    expect(thrown.record.outcome).toBe('failed');
    expect(thrown.record.failure_reason).toEqual({
      error_class: 'TypeError',
      status: null,
      message: 'cannot read the plan',
    });
    const returned = await run(async () => ({ outcome: 'failed', reason: 'gave up' }));
    expect([returned.record.outcome, returned.record.failure_reason]).toEqual(['failed', undefined]);
    expect(returned.result.outcome).toMatchObject({ kind: 'failed', reason: 'gave up' });
  });

  it('an agent whose async run has no return completed, with no final text (and type-checks as written)', async () => {
    const quiet = defineAgent({
      name: 'quiet',
      async run({ tools }) {
        await tools.call('get_user', { user_id: 'u_1042' }).catch(() => undefined);
      },
    });
    const { record, result } = await runAgent({
      sweepSeed: 0,
      scenario: calm,
      arm: 'agent:quiet',
      seed: 1,
      agent: quiet,
      settings: {},
    });
    expect(record.outcome).toBe('completed');
    expect(result.outcome).toEqual({ kind: 'completed', finalText: '' });
  });

  it('an agent that returns neither text nor an AgentResult is failed, saying what it returned', async () => {
    for (const [value, shown] of [
      [42, '42'],
      [{ outcome: 'escalated-ish' }, '{"outcome":"escalated-ish"}'],
      [{ big: 1n }, '[object Object]'],
    ] as const) {
      const { record } = await run(async () => value as unknown as string);
      expect(record.outcome).toBe('failed');
      expect(record.failure_reason).toEqual({
        error_class: 'TypeError',
        status: null,
        message: `the agent returned ${shown}, which is neither a string nor an AgentResult`,
      });
    }
  });

  it('an agent whose loop never ends is stopped at the call limit, with the reason, and told through its signal', async () => {
    let aborted: unknown;
    const modelLoop = await run(async (context) => {
      context.signal.addEventListener('abort', () => {
        aborted = context.signal.reason;
      });
      // A stop reason misspelled: the loop never sees the one it waits for, whatever comes back.
      for (;;) {
        const response = await context.fetch(`${context.baseURL.anthropic}/v1/messages`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': context.apiKey,
            'anthropic-version': '2023-06-01',
          },
          body: JSON.stringify({
            model: context.modelId,
            max_tokens: 100,
            messages: [{ role: 'user', content: context.prompt }],
          }),
        });
        const reply = (await response.json()) as Partial<Message>;
        if ((reply.stop_reason as string) === 'stop') return 'done';
      }
    });
    expect(modelLoop.record.outcome).toBe('failed');
    expect(modelLoop.record.model_calls).toBe(AGENT_CALL_LIMITS.model);
    expect(modelLoop.record.failure_reason?.message).toMatch(/made 1000 model requests, the most one run may make/);
    expect(aborted).toBeInstanceOf(AgentCallLimitReached);
    // Retrying a read whatever it answers, forever.
    const toolLoop = await run(
      async ({ tools }) => {
        for (;;) await tools.call('get_user', { user_id: 'u_1042' }).catch(() => '');
      },
      1,
      fetchTransformWrite,
    );
    expect(toolLoop.record.tool_executions).toBe(AGENT_CALL_LIMITS.tool);
    expect(toolLoop.record.failure_reason?.message).toMatch(/made 10000 tool calls/);
  });

  it('settings reach the agent parsed by its schema, defaults filled in', async () => {
    const { z } = await import('zod');
    let seen: unknown;
    const agent = defineAgent({
      name: 'with-settings',
      settings: z.object({ turns: z.number().default(3), label: z.string().default('x') }),
      async run({ settings }) {
        seen = settings;
        return '';
      },
    });
    await runAgent({ sweepSeed: 0, scenario: calm, arm: 'a', seed: 1, agent, settings: { turns: 5 } });
    expect(seen).toEqual({ turns: 5, label: 'x' });
    // Strict: a misspelt setting is an error, never a silent default.
    await expect(
      runAgent({ sweepSeed: 0, scenario: calm, arm: 'a', seed: 1, agent, settings: { turn: 5 } }),
    ).rejects.toThrow(/turn/);
  });

  it('the Anthropic and OpenAI clients reach the same model and are metered alike', async () => {
    const { record } = await run(async ({ anthropic, openai, modelId, maxTokens, messages, prompt }) => {
      await anthropic.messages.create({ model: modelId, max_tokens: maxTokens, messages });
      await openai.chat.completions.create({ model: modelId, messages: [{ role: 'user', content: prompt }] });
      return '';
    });
    expect(record.model_calls).toBe(2);
  });
});

describe('runAgent: a result no record can hold', () => {
  it('an escalation payload that is not JSON (a BigInt, a cycle) fails that run, with the reason, instead of the sweep', async () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    for (const payload of [{ big: 1n }, cycle, () => 1]) {
      const { record } = await run(async () => ({ outcome: 'escalated', payload }));
      expect(record.outcome).toBe('failed');
      expect(record.escalation).toBeNull();
      expect(record.failure_reason?.message).toMatch(/^the escalation payload cannot be written to a record: /);
      expect(() => JSON.stringify(record)).not.toThrow();
    }
    const { record } = await run(async () => ({ outcome: 'escalated', payload: { big: '1' } }));
    expect([record.outcome, record.escalation]).toEqual(['escalated', { big: '1' }]);
  });

  it('defineAgent refuses, when the module loads, a definition without a run function or with a name no arm can have', () => {
    const loose = defineAgent as unknown as (input: unknown) => unknown;
    expect(() => loose({ name: 'norun' })).toThrow(/^defineAgent: a run function, .*; got run: undefined$/);
    expect(() => loose(42)).toThrow(/got number$/);
    expect(() => loose({ name: '', run: async () => 'done' })).toThrow(
      'defineAgent: name "" is not some text on one line (it names the arm agent:<name>)',
    );
    expect(() => loose({ name: 'two\nlines', run: async () => 'done' })).toThrow(/is not some text on one line/);
    expect(() => loose({ name: 5, run: async () => 'done' })).toThrow(/name 5 is not/);
    // Names that worked before the check still do.
    for (const name of ['MyAgent.v2:fast', 'My Agent', '@acme/agent'])
      expect(() => loose({ name, run: async () => 'done' })).not.toThrow();
  });
});
