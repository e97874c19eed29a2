import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { Message, ModelClient, ModelRequest } from '../../model/model-client.js';
import { cutAtOutputLimit } from '../../model/output-limit.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { recordingHost } from '../recording-host.test-helpers.js';
import { outputLimitRecovery, RESUME_MESSAGE } from './output-limit-recovery.js';

const WRITE: Tool = {
  name: 'write',
  description: 'Write a document.',
  input_schema: { type: 'object', properties: { body: { type: 'string' } } },
};

/** The scripted model behind the API's output limit: replies longer than max_tokens are cut. */
class LimitedModel implements ModelClient {
  readonly name = 'limited';
  readonly inner: ScriptedModel;
  constructor(turns: readonly ScriptedTurn[]) {
    this.inner = new ScriptedModel(turns);
  }
  async create(request: ModelRequest): Promise<Message> {
    return cutAtOutputLimit(await this.inner.create(request), request.max_tokens);
  }
}

/** A write whose arguments are about `tokens` tokens long. */
const longWrite = (tokens: number): ScriptedTurn => ({
  text: 'Writing it.',
  calls: [{ name: 'write', input: { body: 'x'.repeat(tokens * 4) } }],
});

function run(turns: readonly ScriptedTurn[], guards = [outputLimitRecovery({ raisedMaxTokens: 4000 })]) {
  const model = new LimitedModel(turns);
  const host = recordingHost([WRITE]);
  const events: AgentEvent[] = [];
  const loop = new BudgetedAgentLoop({
    model,
    tools: host,
    guards,
    maxTokens: 1000,
    onEvent: (event) => events.push(event),
  });
  return { model, host, events, result: loop.run('Write the report.') };
}

describe('cutAtOutputLimit', () => {
  it('leaves a reply within the limit alone and cuts a longer one inside the block being written', async () => {
    const model = new ScriptedModel([longWrite(2000)]);
    const request: ModelRequest = { model: 'm', max_tokens: 500, messages: [{ role: 'user', content: 'go' }] };
    const full = await model.create(request);
    expect(cutAtOutputLimit(full, 5000)).toBe(full);
    const cut = cutAtOutputLimit(full, 500);
    expect(cut.stop_reason).toBe('max_tokens');
    expect(cut.usage.output_tokens).toBe(500);
    const call = cut.content.at(-1);
    expect(call?.type).toBe('tool_use');
    const body = (call as { input: { body: string } }).input.body;
    // 500 tokens minus the text block (4 + 2) and the call's framing: the body is cut short.
    expect(body.length).toBeGreaterThan(1800);
    expect(body.length).toBeLessThan(2000);
  });
});

describe('outputLimitRecovery', () => {
  it('without it, the cut-off call runs with its cut arguments (the naive loop)', async () => {
    const { host, result } = run([longWrite(2000), { text: 'Done.' }], []);
    expect((await result).outcome.kind).toBe('completed');
    expect(host.executed).toEqual(['write']);
  });

  it('sends the first cut-off request again with the raised budget, which then stays raised', async () => {
    const { model, host, events, result } = run([longWrite(2000), longWrite(2000), { text: 'Done.' }]);
    const outcome = await result;
    expect(outcome.outcome).toEqual({ kind: 'completed', finalText: 'Done.' });
    expect(model.inner.requests.map((request) => request.max_tokens)).toEqual([1000, 4000, 4000]);
    expect(host.executed).toEqual(['write']);
    expect(events.filter((event) => event.type === 'agent.output_limit')).toEqual([
      { type: 'agent.output_limit', at: 0, action: 'raise', maxTokens: 4000 },
    ]);
    // Both attempts are paid for: 1000 tokens cut off, then the whole reply.
    expect(outcome.metrics.outputTokens).toBeGreaterThan(3000);
    // The discarded reply is not in the transcript: one assistant turn per answered call.
    expect(outcome.messages.filter((message) => message.role === 'assistant')).toHaveLength(2);
  });

  it('after the raise, answers a cut-off reply with the resume message, never running the cut call, at most 3 times', async () => {
    const huge = longWrite(9000);
    const { model, host, events, result } = run([huge, huge, huge, huge, huge, huge, { text: 'Gave up.' }]);
    const outcome = await result;
    expect(host.executed).toEqual([]);
    expect(events.filter((event) => event.type === 'agent.output_limit').map((event) => event.action)).toEqual([
      'raise',
      'resume',
      'resume',
      'resume',
      'give_up',
    ]);
    const resumed = model.inner.requests.filter((request) =>
      JSON.stringify(request.messages.at(-1)).includes(RESUME_MESSAGE),
    );
    expect(resumed).toHaveLength(3);
    // The fourth cut-off after the raise is let through without its cut-off call, which ends the run.
    expect(outcome.outcome).toEqual({ kind: 'completed', finalText: 'Writing it.' });
    expect(model.inner.requests).toHaveLength(5);
  });
});
