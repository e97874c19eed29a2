import type { MessageParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/loader.js';
import type { Json } from '../../tools/world.js';
import type { ModelRequest } from '../model-client.js';
import { SimulatedModel } from './simulated-model.js';
import { isSummaryRequest, summaryText } from './summariser.js';
import { formatSummary, parseCall, readRecollection } from './summary-text.js';

const scenario = loadScenario('long-research');
const sources = scenario.world.records['sources'] as Record<string, { [key: string]: Json }>;
const source = (n: number) => sources[`src_0${n}`]!;
const TOOLS = scenario.tools.map((tool) => tool.definition);
const ASK =
  'Summarize the conversation above so that the work can continue from your summary alone. Reply with the summary only.';
// A persona that never wanders off after a good result, so each reply shows the reading of the transcript alone.
const focused = { ...scenario.persona, detour: { ...scenario.persona.detour, after_success: 0 } };
const model = () =>
  new SimulatedModel({
    persona: focused,
    plan: scenario.plan,
    streamKey: { sweepSeed: 0, scenario: scenario.id, runSeed: 4 },
  });

let next = 0;
function exchange(name: string, input: Record<string, unknown>, content: string, isError = false): MessageParam[] {
  const id = `toolu_s${next++}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Next step.' },
        { type: 'tool_use', id, name, input },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
    },
  ];
}
const read = (n: number) => exchange('read_source', { source_id: `src_0${n}` }, JSON.stringify(source(n)));
const ask = (messages: MessageParam[]): ModelRequest => {
  const last = messages.at(-1)!;
  const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return {
    model: 'claude-haiku-5-5',
    max_tokens: 4096,
    messages: [...messages.slice(0, -1), { role: 'user', content: [...content, { type: 'text', text: ASK }] }],
    tools: TOOLS,
    tool_choice: { type: 'none' },
  };
};
const request = (messages: MessageParam[]): ModelRequest => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  system: scenario.system,
  messages,
  tools: TOOLS,
});
const calls = (messages: MessageParam[]) =>
  model()
    .respond(request(messages))
    .content.filter((block): block is ToolUseBlock => block.type === 'tool_use');

describe('the simulated summariser', () => {
  const transcript = [
    { role: 'user', content: scenario.prompt } as MessageParam,
    ...exchange(
      'read_source',
      { source_id: 'src_01' },
      'Error: read_source: request timed out after 15000 ms. May succeed if retried.',
      true,
    ),
    ...read(1),
    ...exchange(
      'search_sources',
      { query: 'canopy temperature' },
      JSON.stringify({ query: 'canopy temperature', matches: [] }),
    ),
    ...read(2),
    ...exchange(
      'read_source',
      { source_id: 'src_03' },
      'Error: read_source: request timed out after 15000 ms. May succeed if retried.',
      true,
    ),
  ];

  it('recognises a summarisation request by its words, and nothing else as one', () => {
    expect(isSummaryRequest(ask(transcript))).toBe(true);
    expect(isSummaryRequest(request(transcript))).toBe(false);
    expect(model().respond(ask(transcript)).content).toEqual([
      { type: 'text', text: summaryText(ask(transcript)), citations: null },
    ]);
  });

  it('keeps the task and, per distinct call, its latest outcome with the short facts of its result, and no long text', () => {
    const text = summaryText(ask(transcript));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Summary of the earlier conversation (covers 5 turns).');
    expect(lines[1]).toBe(`Task: ${scenario.prompt.replace(/\s+/g, ' ').trim()}`);
    const said = lines.map(parseCall).filter((call) => call !== null);
    expect(said.map((call) => [call.name, call.input, call.kind])).toEqual([
      ['read_source', { source_id: 'src_01' }, 'succeeded'],
      ['search_sources', { query: 'canopy temperature' }, 'succeeded'],
      ['read_source', { source_id: 'src_02' }, 'succeeded'],
      ['read_source', { source_id: 'src_03' }, 'failed'],
    ]);
    expect(said[0]).toMatchObject({
      facts: { id: 'src_01', key_finding: source(1)['key_finding'], title: source(1)['title'] },
    });
    expect(text).not.toContain(String(source(1)['text']).slice(0, 40));
    expect(text).not.toContain('Data appendix');
  });

  it('says nothing it was not given: every fact it states is in the request', () => {
    const given = JSON.stringify(ask(transcript).messages);
    for (const call of summaryText(ask(transcript)).split('\n').map(parseCall)) {
      if (call?.kind !== 'succeeded') continue;
      for (const value of Object.values(call.facts as Record<string, Json>))
        expect(given).toContain(JSON.stringify(value).slice(1, -1));
    }
    expect(summaryText(ask([{ role: 'user', content: scenario.prompt }, ...read(1)]))).not.toContain('src_02');
  });

  it('carries an earlier summary and its pinned results into the next one', () => {
    const earlier = formatSummary(9, 'the task', [
      { kind: 'succeeded', name: 'read_source', input: { source_id: 'src_01' }, facts: { key_finding: 'K1' } },
    ]);
    const pinned = `Result of read_source {"source_id":"src_02"} (kept verbatim):\n${JSON.stringify(source(2))}\n(end of result)`;
    const text = summaryText(
      ask([{ role: 'user', content: [{ type: 'text', text: `${earlier}\n\n${pinned}` }] }, ...read(3)]),
    );
    const recollection = readRecollection(text, {});
    expect(recollection).toMatchObject({ coveredTurns: 10, task: 'the task' });
    expect(recollection?.calls.map((call) => call.input)).toEqual([
      { source_id: 'src_01' },
      { source_id: 'src_02' },
      { source_id: 'src_03' },
    ]);
    expect(recollection?.calls[1]).toMatchObject({ facts: { key_finding: source(2)['key_finding'] } });
  });

  it('is cut by the output limit like any reply: the latest lines go first', () => {
    const reply = model().respond({ ...ask(transcript), max_tokens: 150 });
    expect(reply.stop_reason).toBe('max_tokens');
    const text = reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(
      text
        .split('\n')
        .map(parseCall)
        .filter((call) => call !== null).length,
    ).toBeLessThan(4);
  });
});

describe('the simulated model after compaction', () => {
  const recalled = (ns: readonly number[]) =>
    formatSummary(
      ns.length,
      null,
      ns.map((n) => ({
        kind: 'succeeded' as const,
        name: 'read_source',
        input: { source_id: `src_0${n}` },
        facts: { key_finding: source(n)['key_finding']! },
      })),
    );
  const pinned = (n: number) =>
    `Result of read_source {"source_id":"src_0${n}"} (kept verbatim):\n${JSON.stringify(source(n))}\n(end of result)`;
  const start = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });

  it('knows what the summary says and writes the brief from it', () => {
    const [call] = calls([start(recalled([1, 2, 3, 4, 5, 6])), ...read(7), ...read(8)]);
    expect(call?.name).toBe('write_result');
    expect((call!.input as { value: { findings: string[] } }).value.findings).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => source(n)['key_finding']),
    );
  });

  it('fetches again a result the summary lost instead of making it up, and a pin spares that', () => {
    const lost = calls([start(recalled([2, 3, 4, 5, 6])), ...read(7), ...read(8)]);
    expect(lost.map((call) => [call.name, call.input])).toEqual([['read_source', { source_id: 'src_01' }]]);
    const kept = calls([start(`${recalled([2, 3, 4, 5, 6])}\n\n${pinned(1)}`), ...read(7), ...read(8)]);
    expect(kept[0]?.name).toBe('write_result');
  });

  it('reads a fetched-again result as that step, then goes on', () => {
    const [call] = calls([start(recalled([2, 3, 4, 5, 6])), ...read(7), ...read(8), ...read(1)]);
    expect(call?.name).toBe('write_result');
  });

  it('counts the turns a summary covers, so ids and draws stay fresh', () => {
    const reply = model().respond(request([start(recalled([1, 2])), ...read(3)]));
    expect(reply.content.find((block) => block.type === 'tool_use')).toMatchObject({ id: 'toolu_sim_3' });
  });

  it('with a run journal offered, writes each needed finding down once, and reads the journal a compacted transcript shows', () => {
    const journalTools = [...TOOLS, { name: 'append_run_journal_entry', input_schema: { type: 'object' as const } }];
    const ask = (messages: MessageParam[]) =>
      model()
        .respond({ ...request(messages), tools: journalTools })
        .content.find((block): block is ToolUseBlock => block.type === 'tool_use');
    const afterRead = [{ role: 'user', content: scenario.prompt } as MessageParam, ...read(1)];
    const note = ask(afterRead);
    expect(note?.name).toBe('append_run_journal_entry');
    const entry = (note!.input as { text: string }).text;
    expect(entry).toBe(
      `read_source {"source_id":"src_01"} succeeded: ${JSON.stringify({ author: source(1)['author'], id: 'src_01', key_finding: source(1)['key_finding'], title: source(1)['title'], year: source(1)['year'] })}`,
    );
    const noted = [
      ...afterRead,
      ...exchange(
        'append_run_journal_entry',
        { section: 'verified_findings', text: entry },
        'Recorded in verified_findings.',
      ),
    ];
    expect(ask(noted)?.name).not.toBe('append_run_journal_entry');
    const journal = `Run journal (kept with the journal tools):\nverified_findings:\n${[1, 2, 3, 4, 5, 6].map((n) => `- read_source {"source_id":"src_0${n}"} succeeded: ${JSON.stringify({ key_finding: source(n)['key_finding'] })}`).join('\n')}`;
    const [write] = calls([
      start(
        `[Context truncated: 12 earlier turns were dropped to fit the context window; their results are no longer available.]\n\n${journal}`,
      ),
      ...read(7),
      ...read(8),
    ]);
    expect(write?.name).toBe('write_result');
  });
});
