import type { ContentBlock, MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { STUCK_TOOL_NAME, stuckTool } from '../../loop/guards/stuck-tool.js';
import type { StreamKey } from '../../random/streams.js';
import { loadScenario } from '../../scenarios/loader.js';
import type { ModelRequest } from '../model-client.js';
import { blockTokens, requestTokens } from '../token-estimate.js';
import { SimulatedModel } from './simulated-model.js';

const scenario = loadScenario('fetch-transform-write');
const TOOLS: Tool[] = scenario.tools.map((tool) => tool.definition);
const HELP_TOOLS: Tool[] = [...TOOLS, ...(stuckTool().tools ?? [])];
const USER = { id: 'u_1042', name: 'Ada  Lovelace', email: 'Ada.Lovelace@Example.COM' };
const TRANSFORMED = {
  id: 'u_1042',
  display_name: 'Ada Lovelace',
  email: 'ada.lovelace@example.com',
  email_domain: 'example.com',
  initials: 'AL',
};

const key = (runSeed: number): StreamKey => ({ sweepSeed: 1, scenario: scenario.id, runSeed });
const model = (runSeed = 0): SimulatedModel =>
  new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key(runSeed) });

function request(messages: MessageParam[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'claude-sonnet-4-5', max_tokens: 1024, system: scenario.system, messages, tools: TOOLS, ...extra };
}

let nextId = 0;
function exchange(name: string, input: Record<string, unknown>, content: string, isError = false): MessageParam[] {
  const id = `toolu_t${nextId++}`;
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
    },
  ];
}

const start: MessageParam = { role: 'user', content: scenario.prompt };
const toolUses = (content: readonly ContentBlock[]): ToolUseBlock[] =>
  content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
const isTextOnly = (content: readonly ContentBlock[]): boolean =>
  content.length > 0 && content.every((block) => block.type === 'text');

/** A transcript half-way through, where the persona has real choices to make. */
const midway: MessageParam[] = [
  start,
  ...exchange('get_user', { user_id: 'u_1042' }, 'Error: get_user: request timed out after 10000 ms', true),
  ...exchange('get_user', { user_id: 'u_1042' }, JSON.stringify(USER)),
];

describe('SimulatedModel', () => {
  it('is a pure function of the request: the same request twice, or a copy of it, gets the same reply', async () => {
    for (const runSeed of [0, 1, 2, 3, 4, 5, 6, 7]) {
      const sim = model(runSeed);
      const req = request(midway);
      const first = sim.respond(req);
      expect(sim.respond(req)).toEqual(first);
      expect(sim.respond(JSON.parse(JSON.stringify(req)) as ModelRequest)).toEqual(first);
      expect(await model(runSeed).create(req)).toEqual(first);
    }
  });

  it('calls get_user for u_1042 first', () => {
    const reply = model().respond(request([start]));
    expect(reply.stop_reason).toBe('tool_use');
    expect(reply.content[0]?.type).toBe('text');
    expect(toolUses(reply.content).map((use) => [use.id, use.name, use.input])).toEqual([
      ['toolu_sim_0', 'get_user', { user_id: 'u_1042' }],
    ]);
  });

  it('computes usage with the shared token estimator', () => {
    for (const messages of [[start], midway]) {
      const req = request(messages);
      const reply = model(3).respond(req);
      expect(reply.usage.input_tokens).toBe(requestTokens(req));
      expect(reply.usage.output_tokens).toBe(reply.content.reduce((sum, block) => sum + blockTokens(block), 0));
    }
  });

  it('answers in text only when tool_choice is none', () => {
    for (const runSeed of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const reply = model(runSeed).respond(request(midway, { tool_choice: { type: 'none' } }));
      expect(isTextOnly(reply.content)).toBe(true);
      expect(reply.stop_reason).toBe('end_turn');
    }
  });

  it('answers in text only after a budget-exhausted message, even with tools offered', () => {
    const last = midway.at(-1);
    const content = last !== undefined && typeof last.content !== 'string' ? last.content : [];
    const messages: MessageParam[] = [
      ...midway.slice(0, -1),
      {
        role: 'user',
        content: [
          ...content,
          {
            type: 'text',
            text: 'Tool budget exhausted (15 calls). Summarize what you have learned and return a final answer.',
          },
        ],
      },
    ];
    for (const runSeed of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const reply = model(runSeed).respond(request(messages));
      expect(isTextOnly(reply.content)).toBe(true);
    }
    // Control: the same transcript without the notice gets tool calls from some seeds.
    const withTools = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter(
      (runSeed) => toolUses(model(runSeed).respond(request(midway)).content).length > 0,
    );
    expect(withTools.length).toBeGreaterThan(0);
  });

  it('calls request_human_help with a structured payload when tool_choice forces it', () => {
    const messages = [
      start,
      ...exchange('get_user', { user_id: 'u_1042' }, 'Error: get_user: request timed out after 10000 ms', true),
    ];
    const reply = model().respond(
      request(messages, { tools: HELP_TOOLS, tool_choice: { type: 'tool', name: STUCK_TOOL_NAME } }),
    );
    const uses = toolUses(reply.content);
    expect(uses).toHaveLength(1);
    expect(uses[0]?.name).toBe(STUCK_TOOL_NAME);
    expect(uses[0]?.input).toEqual({
      summary: "I am stuck at step 'fetch' after 1 tool calls.",
      attempted_approaches: ['called get_user'],
      specific_question: 'How should I proceed with get_user?',
    });
  });

  it('reports the plan final text once every step has a good result', () => {
    const done = [
      start,
      ...exchange('get_user', { user_id: 'u_1042' }, JSON.stringify(USER)),
      ...exchange('transform_record', { record: USER }, JSON.stringify(TRANSFORMED)),
      ...exchange('write_result', { key: 'u_1042', value: TRANSFORMED }, '{"ok":true,"key":"u_1042","writes":1}'),
    ];
    const reply = model().respond(request(done));
    expect(reply.content).toEqual([{ type: 'text', text: scenario.plan.final, citations: null }]);
  });
});

describe("the persona's reading of words", () => {
  const SEEDS = 2000;

  /** The share of seeds whose reply repeats the failed call with identical arguments. */
  function sameArgumentShare(messages: MessageParam[], tool: string, input: Record<string, unknown>): number {
    let same = 0;
    for (let runSeed = 0; runSeed < SEEDS; runSeed++) {
      const uses = toolUses(model(runSeed).respond(request(messages)).content);
      if (uses.some((use) => use.name === tool && JSON.stringify(use.input) === JSON.stringify(input))) same += 1;
    }
    return same / SEEDS;
  }

  const failedFetch = (text: string): MessageParam[] => [
    start,
    ...exchange('get_user', { user_id: 'u_1042' }, text, true),
  ];
  const PLAIN = "Error: no user with id 'u_1042'";
  const PERMANENT =
    "Error: Permanent failure: Not found (HTTP 404): no user with id 'u_1042'. Do not retry with the same arguments.";

  const UNREADABLE = 'Error: something went wrong';

  it('retries a failed call that says nothing of itself with the same arguments often enough to measure', () => {
    const unreadable = sameArgumentShare(failedFetch(UNREADABLE), 'get_user', { user_id: 'u_1042' });
    expect(unreadable).toBeGreaterThan(0.1);
    expect(unreadable).toBeLessThan(0.5);
  });

  // A bare client error is read for what it is, partly (retry.raw_error_reading 0.3 here).
  it('retries a bare "not found" less often than an error that says nothing, in any of its wordings', () => {
    const unreadable = sameArgumentShare(failedFetch(UNREADABLE), 'get_user', { user_id: 'u_1042' });
    for (const bare of [PLAIN, 'Error: user u_1042 does not exist', 'Error: HTTP 404 Not Found']) {
      const share = sameArgumentShare(failedFetch(bare), 'get_user', { user_id: 'u_1042' });
      expect([bare, share < unreadable * 0.9, share > unreadable * 0.6]).toEqual([bare, true, true]);
    }
  });

  // The published measurement: about 70% fewer same-argument retries after the hint than after a bare client error.
  it('retries with the same arguments 50-90% less often after "Do not retry with the same arguments."', () => {
    const plain = sameArgumentShare(failedFetch(PLAIN), 'get_user', { user_id: 'u_1042' });
    const permanent = sameArgumentShare(failedFetch(PERMANENT), 'get_user', { user_id: 'u_1042' });
    expect(permanent / plain).toBeGreaterThan(0.1);
    expect(permanent / plain).toBeLessThan(0.5);
  });

  it('the permanent hint also lowers same-argument retries at a step without variants', () => {
    const writeArgs = { key: 'u_1042', value: TRANSFORMED };
    const failedWrite = (text: string): MessageParam[] => [
      start,
      ...exchange('get_user', { user_id: 'u_1042' }, JSON.stringify(USER)),
      ...exchange('transform_record', { record: USER }, JSON.stringify(TRANSFORMED)),
      ...exchange('write_result', writeArgs, text, true),
    ];
    const plain = sameArgumentShare(failedWrite("Error: 'value' must be an object"), 'write_result', writeArgs);
    const permanent = sameArgumentShare(
      failedWrite(
        "Error: Permanent failure: Invalid arguments (HTTP 400): 'value' must be an object. Do not retry with the same arguments.",
      ),
      'write_result',
      writeArgs,
    );
    expect(plain).toBeGreaterThan(0.1);
    expect(permanent / plain).toBeLessThan(0.4);
  });
});
