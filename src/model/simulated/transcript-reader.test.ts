import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { REFLECTION_MESSAGE } from '../../loop/guards/repeat-fingerprint.js';
import { loadScenario } from '../../scenarios/loader.js';
import { viewResult } from './result-view.js';
import { readTranscript } from './transcript-reader.js';

const { plan, prompt } = loadScenario('fetch-transform-write');
const STEPS = plan.steps;

const USER = { id: 'u_1042', name: 'Ada  Lovelace', email: 'Ada.Lovelace@Example.COM' };
const TRANSFORMED = {
  id: 'u_1042',
  display_name: 'Ada Lovelace',
  email: 'ada.lovelace@example.com',
  email_domain: 'example.com',
  initials: 'AL',
};

let nextId = 0;

/** One tool call and its result, as the loop writes them into the transcript. */
function exchange(name: string, input: Record<string, unknown>, content: string, isError = false): MessageParam[] {
  const id = `toolu_${nextId++}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'calling' },
        { type: 'tool_use', id, name, input },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
    },
  ];
}

const start: MessageParam = { role: 'user', content: prompt };
const fetched = () => exchange('get_user', { user_id: 'u_1042' }, JSON.stringify(USER));
const transformed = () => exchange('transform_record', { record: USER }, JSON.stringify(TRANSFORMED));

describe('readTranscript', () => {
  it('starts at step 0 with nothing known', () => {
    const state = readTranscript([start], STEPS);
    expect(state).toEqual({
      calls: [],
      stepResults: [undefined, undefined, undefined],
      stepMalformed: [undefined, undefined, undefined],
      failuresAt: [0, 0, 0],
      nextStep: 0,
      detourRun: 0,
      journaled: [],
      asked: [],
      lastUserText: prompt,
    });
  });

  it('advances nextStep on good results and keeps each step result', () => {
    const state = readTranscript([start, ...fetched(), ...transformed()], STEPS);
    expect(state.nextStep).toBe(2);
    expect(state.stepResults).toEqual([USER, TRANSFORMED, undefined]);
    expect(state.calls.map((call) => [call.name, call.step, call.role, call.result.kind])).toEqual([
      ['get_user', 0, 'plan', 'good'],
      ['transform_record', 1, 'plan', 'good'],
    ]);
    expect(state.lastUserText).toBe('');
  });

  it('records an unparseable result in stepMalformed, counts it as a failure and does not advance', () => {
    const cut = '{"id":"u_1042","name":"Ada  Lov';
    const state = readTranscript([start, ...exchange('get_user', { user_id: 'u_1042' }, cut)], STEPS);
    expect(state.nextStep).toBe(0);
    expect(state.stepMalformed).toEqual([cut, undefined, undefined]);
    expect(state.stepResults[0]).toBeUndefined();
    expect(state.failuresAt).toEqual([1, 0, 0]);
  });

  it('counts failures per step', () => {
    const state = readTranscript(
      [
        start,
        ...exchange('get_user', { user_id: 'u_1042' }, 'Error: get_user: request timed out after 10000 ms', true),
        ...exchange('get_user', { user_id: '1042' }, "Error: no user with id '1042'", true),
        ...fetched(),
        ...exchange(
          'transform_record',
          { record: USER },
          'Error: transform_record: HTTP 503 Service Unavailable',
          true,
        ),
      ],
      STEPS,
    );
    expect(state.failuresAt).toEqual([2, 1, 0]);
    expect(state.nextStep).toBe(1);
  });

  it('counts the detour calls at the end of the transcript in a row', () => {
    const state = readTranscript(
      [
        start,
        ...exchange('search_users', { query: 'lovelace' }, '{"matches":[]}'),
        ...fetched(),
        ...exchange('search_users', { query: 'Ada Lovelace' }, '{"matches":[]}'),
        ...exchange('get_user', { user_id: 'u_1042' }, JSON.stringify(USER)),
        ...exchange('read_result', { key: 'u_1042' }, '{"key":"u_1042","found":false}'),
      ],
      STEPS,
    );
    // After the fetch, get_user is no longer a plan step; read_result verifies only the write step.
    expect(state.calls.map((call) => call.role)).toEqual(['detour', 'plan', 'detour', 'detour', 'detour']);
    expect(state.detourRun).toBe(3);
    expect(state.nextStep).toBe(1);
  });

  it('a verify read that found the write completes the side-effecting step', () => {
    const failedWrite = exchange(
      'write_result',
      { key: 'u_1042', value: TRANSFORMED },
      'Error: Connection reset: socket hang up. The operation may have been applied; check before retrying.',
      true,
    );
    const before = [start, ...fetched(), ...transformed(), ...failedWrite];
    expect(readTranscript(before, STEPS).nextStep).toBe(2);
    expect(readTranscript(before, STEPS).failuresAt).toEqual([0, 0, 1]);

    const found = readTranscript(
      [
        ...before,
        ...exchange(
          'read_result',
          { key: 'u_1042' },
          JSON.stringify({ key: 'u_1042', found: true, value: TRANSFORMED, writes: 1 }),
        ),
      ],
      STEPS,
    );
    expect(found.calls.at(-1)?.role).toBe('verify');
    expect(found.nextStep).toBe(3);

    const notFound = readTranscript(
      [...before, ...exchange('read_result', { key: 'u_1042' }, '{"key":"u_1042","found":false}')],
      STEPS,
    );
    expect(notFound.calls.at(-1)?.role).toBe('verify');
    expect(notFound.nextStep).toBe(2);
  });

  it('a call without a result in the transcript is missing, and text after results is the last user text', () => {
    const messages: MessageParam[] = [
      start,
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'lost', name: 'get_user', input: { user_id: 'u_1042' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Tool budget exhausted ' },
          { type: 'text', text: '(15 calls).' },
        ],
      },
    ];
    const state = readTranscript(messages, STEPS);
    expect(state.calls[0]?.result).toEqual({ kind: 'missing' });
    expect(state.lastUserText).toBe('Tool budget exhausted (15 calls).');
  });
});

describe('readTranscript with steps that share a tool', () => {
  const BATCH = loadScenario('batch-user-digest').plan.steps;
  const user = (id: string) =>
    exchange('get_user', { user_id: id }, JSON.stringify({ id, email: `${id}@example.org` }));

  it('tells the steps apart by their arguments', () => {
    const state = readTranscript([start, ...user('u_3001'), ...user('u_3002')], BATCH);
    expect(state.calls.map((call) => [call.step, call.role])).toEqual([
      [0, 'plan'],
      [1, 'plan'],
    ]);
    expect(state.nextStep).toBe(2);
    expect(state.stepResults.slice(0, 3)).toEqual([
      { id: 'u_3001', email: 'u_3001@example.org' },
      { id: 'u_3002', email: 'u_3002@example.org' },
      undefined,
    ]);
  });

  it('reads a re-read of a done step as a detour, not as the next step', () => {
    const state = readTranscript([start, ...user('u_3001'), ...user('u_3001')], BATCH);
    expect(state.calls.map((call) => [call.step, call.role])).toEqual([
      [0, 'plan'],
      [-1, 'detour'],
    ]);
    expect(state.stepResults[1]).toBeUndefined();
    expect(state.nextStep).toBe(1);
  });

  it('counts a failure against the step the arguments name', () => {
    const failed = exchange(
      'get_user',
      { user_id: 'u_3002' },
      'Error: get_user: request timed out after 10000 ms',
      true,
    );
    expect(readTranscript([start, ...user('u_3001'), ...failed], BATCH).failuresAt).toEqual([0, 1, 0, 0, 0]);
  });
});

describe('viewResult', () => {
  it('reads a well-formed result that says it found nothing as empty, not good', () => {
    const text = JSON.stringify({ query: 'q', results: [], message: 'No results found for this query.' });
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: text })).toEqual({ kind: 'empty', text });
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: '{"query":"q","matches":[]}' })).toMatchObject({
      kind: 'good',
    });
  });

  it('recognises the repeat guard reflection message', () => {
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: REFLECTION_MESSAGE, is_error: true })).toEqual({
      kind: 'refused',
      by: 'repeat',
    });
  });

  it('reads the permanent hint', () => {
    const text =
      "Error: Permanent failure: Not found (HTTP 404): no user with id 'x'. Do not retry with the same arguments.";
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: text, is_error: true })).toEqual({
      kind: 'error',
      text,
      hint: 'permanent',
      status: 'permanent',
      mayHaveApplied: false,
    });
  });

  it('reads the transient hint, also from text blocks', () => {
    const view = viewResult({
      type: 'tool_result',
      tool_use_id: 't',
      content: [
        { type: 'text', text: 'Error: Network timeout: get_user: request timed out. ' },
        { type: 'text', text: 'May succeed if retried.' },
      ],
      is_error: true,
    });
    expect(view).toEqual({
      kind: 'error',
      text: 'Error: Network timeout: get_user: request timed out. May succeed if retried.',
      hint: 'transient',
      status: 'transient',
      mayHaveApplied: false,
    });
  });

  it('reads that a write may have been applied', () => {
    const text =
      'Error: Connection reset: write_result: socket hang up. The operation may have been applied; check before retrying.';
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: text, is_error: true })).toEqual({
      kind: 'error',
      text,
      hint: 'none',
      status: 'transient',
      mayHaveApplied: true,
    });
  });

  it('takes an error without hints as a plain error, a JSON body as good, anything else as malformed', () => {
    expect(
      viewResult({ type: 'tool_result', tool_use_id: 't', content: "Error: Tool 'x' failed: boom", is_error: true }),
    ).toMatchObject({ kind: 'error', hint: 'none' });
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: 'error: no is_error flag' })).toMatchObject({
      kind: 'error',
      hint: 'none',
    });
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: '{"a":[1,2]}' })).toEqual({
      kind: 'good',
      value: { a: [1, 2] },
    });
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: '{"a":[1,' })).toEqual({
      kind: 'malformed',
      text: '{"a":[1,',
    });
    expect(viewResult(undefined)).toEqual({ kind: 'missing' });
  });

  it('shares one frozen reading of a text, but reads a flagged result as an error whatever its words', () => {
    const text = '{"id":"u_1","tags":["a"]}';
    const first = viewResult({ type: 'tool_result', tool_use_id: 't', content: text });
    expect(viewResult({ type: 'tool_result', tool_use_id: 'u', content: text })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // The same words flagged as an error are not the remembered good reading.
    expect(viewResult({ type: 'tool_result', tool_use_id: 'v', content: text, is_error: true })).toEqual({
      kind: 'error',
      text,
      hint: 'none',
      status: 'unknown',
      mayHaveApplied: false,
    });
    expect(viewResult({ type: 'tool_result', tool_use_id: 'w', content: text })).toBe(first);
  });
});

describe('readTranscript remembers nothing the transcript does not say', () => {
  const detour = () => exchange('search_users', { query: 'lovelace' }, '{"query":"lovelace","matches":[]}');

  it('reads the same state from the same messages and from a fresh copy of them', () => {
    const messages = [start, ...fetched(), ...detour(), ...transformed()];
    const first = readTranscript(messages, STEPS);
    expect(readTranscript(messages, STEPS)).toEqual(first);
    expect(readTranscript(structuredClone(messages), STEPS)).toEqual(first);
    expect(first.nextStep).toBe(2);
  });

  it('forgets a result dropped from the middle, though every later message is the same object', () => {
    const fetch = fetched();
    const later = [...detour(), ...exchange('get_user', { user_id: 'u_1042' }, 'Error: request timed out', true)];
    const full = readTranscript([start, ...fetch, ...later], STEPS);
    expect(full.stepResults[0]).toEqual(USER);
    expect(full.nextStep).toBe(1);
    // As after compaction without pinning: the good fetch is gone from the transcript.
    const compacted = readTranscript([start, ...later], STEPS);
    expect(compacted.stepResults[0]).toBeUndefined();
    expect(compacted.nextStep).toBe(0);
    expect(compacted.failuresAt[0]).toBe(1);
    expect(compacted.calls.map((call) => call.role)).toEqual(['detour', 'plan']);
  });

  it('reads a turn again when the message answering it changes', () => {
    const [call, goodResult] = fetched() as [MessageParam, MessageParam];
    expect(readTranscript([start, call, goodResult], STEPS).nextStep).toBe(1);
    const useId = (call.content as Array<{ type: string; id?: string }>)[1]!.id!;
    const failed: MessageParam = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: useId, content: 'Error: HTTP 503', is_error: true }],
    };
    expect(readTranscript([start, call, failed], STEPS).nextStep).toBe(0);
  });
});

describe('readTranscript: several calls in one turn', () => {
  const { plan: research } = loadScenario('research-8-sources');
  const source = (id: string) => JSON.stringify({ id, title: `Source ${id}`, text: 'words' });
  const turn = (calls: Array<{ id: string; source: string; content: string; isError?: boolean }>): MessageParam[] => [
    {
      role: 'assistant',
      content: calls.map((call) => ({
        type: 'tool_use' as const,
        id: call.id,
        name: 'read_source',
        input: { source_id: call.source },
      })),
    },
    {
      role: 'user',
      content: calls.map((call) => ({
        type: 'tool_result' as const,
        tool_use_id: call.id,
        content: call.content,
        ...(call.isError ? { is_error: true } : {}),
      })),
    },
  ];

  it('keeps a later step that worked, but stays at an earlier one that failed, then skips past the kept one', () => {
    const batch = turn([
      { id: 'b1', source: 'src_01', content: source('src_01') },
      { id: 'b2', source: 'src_02', content: 'Error: Network timeout. May succeed if retried.', isError: true },
      { id: 'b3', source: 'src_03', content: source('src_03') },
    ]);
    const after = readTranscript([start, ...batch], research.steps);
    expect(after.nextStep).toBe(1);
    expect(after.stepResults.slice(0, 3).map((value) => value !== undefined)).toEqual([true, false, true]);
    expect(after.failuresAt.slice(0, 3)).toEqual([0, 1, 0]);

    const retried = readTranscript(
      [start, ...batch, ...turn([{ id: 'r2', source: 'src_02', content: source('src_02') }])],
      research.steps,
    );
    expect(retried.nextStep).toBe(3);
  });
});

describe('readTranscript resumes a live transcript', () => {
  it('reads a live transcript the way the loop edits it exactly as a fresh copy of each request', () => {
    const [call, goodResult] = fetched() as [MessageParam, MessageParam];
    const [retry, timeout] = exchange('transform_record', { record: USER }, 'Error: request timed out', true) as [
      MessageParam,
      MessageParam,
    ];
    const live: MessageParam[] = [start];
    const check = () => expect(readTranscript(live, STEPS)).toEqual(readTranscript(structuredClone(live), STEPS));
    check();
    live.push(call, goodResult);
    check();
    // A guard replaces the last message with one that adds a note; the same request is then sent again.
    live[live.length - 1] = {
      role: 'user',
      content: [...(goodResult.content as []), { type: 'text', text: 'Tool budget exhausted (1 calls).' }],
    };
    check();
    check();
    live.push(retry, timeout);
    check();
    // A rewritten history (as compaction or the fixup leaves it, in the same array) is read from the start.
    live.splice(0, live.length, start, retry, timeout);
    check();
    expect(readTranscript(live, STEPS).nextStep).toBe(0);
  });
});
