import type { ContentBlock, MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { MORE_ITERATIONS_TOOL_NAME } from '../../loop/guards/iteration-budget.js';
import { STUCK_TOOL } from '../../loop/guards/stuck-tool.js';
import { loadScenario } from '../../scenarios/loader.js';
import type { ModelRequest } from '../model-client.js';
import { REWORDINGS } from './guard-words.test-helpers.js';
import { viewResult } from './result-view.js';
import { SimulatedModel } from './simulated-model.js';

/**
 * Rewording a guard's message must not change what the model does: for each message, the
 * guard's own words and each rewording are put in the same transcript, and the model's
 * reading of the result and its next action (the tools it calls with their arguments, or
 * an answer in words) must be the same on every seed.
 */

const scenario = loadScenario('fetch-transform-write');
const TOOLS: Tool[] = scenario.tools.map((tool) => tool.definition);
const USER = JSON.stringify(scenario.world.records['users']!['u_1042']);
const TRANSFORMED =
  '{"id":"u_1042","display_name":"Ada Lovelace","email":"ada.lovelace@example.com","email_domain":"example.com","initials":"AL"}';
const WRITE = { key: 'u_1042', value: JSON.parse(TRANSFORMED) };
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

let ids = 0;
function exchange(name: string, input: Record<string, unknown>, content: string, isError = false): MessageParam[] {
  const id = `toolu_p${ids++}`;
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
  ];
}

/** Words a harness adds after the results of the last turn. */
function withText(messages: MessageParam[], text: string): MessageParam[] {
  const last = messages.at(-1)!;
  const blocks = typeof last.content === 'string' ? [] : last.content;
  return [...messages.slice(0, -1), { role: 'user', content: [...blocks, { type: 'text', text }] }];
}

const start: MessageParam = { role: 'user', content: scenario.prompt };
const fetched = () => exchange('get_user', { user_id: 'u_1042' }, USER);
const transformed = () => exchange('transform_record', { record: JSON.parse(USER) }, TRANSFORMED);

/** What the model did: the calls it made (tool and arguments), or its answer in words. */
function action(content: readonly ContentBlock[]): unknown {
  const calls = content.flatMap((block) => (block.type === 'tool_use' ? [[block.name, block.input]] : []));
  return calls.length > 0 ? calls : 'answered in words';
}

/** The model's next action on each seed, for a request built around one wording. */
function actions(build: (words: string) => ModelRequest, words: string, seeds = SEEDS): unknown[] {
  return seeds.map((runSeed) => {
    const model = new SimulatedModel({
      persona: scenario.persona,
      plan: scenario.plan,
      streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed },
    });
    return action(model.respond(build(words)).content);
  });
}

/** The last tool result of a request, as the model reads it. */
function lastView(request: ModelRequest): unknown {
  const last = request.messages.at(-1)!;
  const blocks = typeof last.content === 'string' ? [] : last.content;
  const result = blocks.filter((block): block is ToolResultBlockParam => block.type === 'tool_result').at(-1);
  const view = viewResult(result);
  // An error's own text is what differs between wordings; what it is read to say is compared.
  return view.kind === 'error' ? { ...view, text: undefined } : view;
}

const request = (messages: MessageParam[], tools: Tool[] = TOOLS): ModelRequest => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: scenario.system,
  messages,
  tools,
});

/** Per guard message: the request its words appear in. */
const SITUATIONS: Record<keyof typeof REWORDINGS, (words: string) => ModelRequest> = {
  // A detour made twice; the second refused.
  repeat: (words) =>
    request([
      start,
      ...fetched(),
      ...transformed(),
      ...exchange('search_users', { query: 'lovelace' }, '{"query":"lovelace","matches":[{"id":"u_1042"}]}'),
      ...exchange('search_users', { query: 'lovelace' }, words, true),
    ]),
  // A turn of two calls, the second past the budget; tools still offered, so only the words tell.
  limit: (words) => {
    const messages: MessageParam[] = [start, ...fetched()];
    messages.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'transform_record', input: { record: JSON.parse(USER) } },
          { type: 'tool_use', id: 'toolu_b', name: 'search_users', input: { query: 'lovelace' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: TRANSFORMED },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: words, is_error: true },
        ],
      },
    );
    return request(messages);
  },
  permanent: (words) => request([start, ...exchange('get_user', { user_id: 'u_1042' }, words, true)]),
  transient: (words) => request([start, ...exchange('get_user', { user_id: 'u_1042' }, words, true)]),
  applied: (words) => request([start, ...fetched(), ...transformed(), ...exchange('write_result', WRITE, words, true)]),
  // Looping on a search after the record was fetched.
  nudge: (words) =>
    request(
      withText(
        [
          start,
          ...fetched(),
          ...exchange('search_users', { query: 'lovelace' }, '{"query":"lovelace","matches":[]}'),
          ...exchange('search_users', { query: 'Ada Lovelace' }, '{"query":"ada lovelace","matches":[]}'),
        ],
        words,
      ),
    ),
  directive: (words) =>
    request(
      withText(
        [
          start,
          ...fetched(),
          ...exchange('search_users', { query: 'lovelace' }, '{"query":"lovelace","matches":[]}'),
          ...exchange('search_users', { query: 'Ada Lovelace' }, '{"query":"ada lovelace","matches":[]}'),
        ],
        words,
      ),
    ),
  final: (words) => request(withText([start, ...fetched()], words)),
  moreTurns: (words) =>
    request(withText([start, ...fetched()], words), [
      ...TOOLS,
      { name: MORE_ITERATIONS_TOOL_NAME, input_schema: { type: 'object' } },
    ]),
  summary: (words) => request([start, ...fetched(), ...transformed(), { role: 'user', content: words }]),
  // Three failures at the fetch step, and a tool that asks a person, described in these
  // words (named so that its name alone does not say it).
  help: (words) =>
    request(
      [
        start,
        ...exchange('get_user', { user_id: 'u_1042' }, 'Error: get_user: request timed out after 10000 ms', true),
        ...exchange('get_user', { user_id: 'u_1042' }, 'Error: get_user: request timed out after 10000 ms', true),
        ...exchange('get_user', { user_id: 'u_1042' }, 'Error: get_user: request timed out after 10000 ms', true),
      ],
      [...TOOLS, { ...STUCK_TOOL, name: 'escalate', description: words }],
    ),
};

describe('the model does the same whatever the wording of a guard message', () => {
  for (const [kind, [own, ...rewordings]] of Object.entries(REWORDINGS)) {
    const situation = SITUATIONS[kind as keyof typeof REWORDINGS];
    it(`${kind}: ${rewordings.length} rewordings`, () => {
      expect(rewordings.length).toBeGreaterThanOrEqual(3);
      const expected = actions(situation, own);
      const view = lastView(situation(own));
      for (const words of rewordings) {
        expect([words, lastView(situation(words))]).toEqual([words, view]);
        expect([words, actions(situation, words)]).toEqual([words, expected]);
      }
    });
  }

  it('the situations are ones where the words matter: without them, the model does something else', () => {
    const neutral = 'Noted.';
    // More seeds: advice to retry changes the odds of one branch among several.
    const seeds = Array.from({ length: 200 }, (_, i) => i + 1);
    const differs = Object.entries(SITUATIONS).filter(([kind, situation]) => {
      const own = REWORDINGS[kind as keyof typeof REWORDINGS][0];
      return JSON.stringify(actions(situation, own, seeds)) !== JSON.stringify(actions(situation, neutral, seeds));
    });
    expect(differs.map(([kind]) => kind).sort()).toEqual(Object.keys(SITUATIONS).sort());
  });
});
