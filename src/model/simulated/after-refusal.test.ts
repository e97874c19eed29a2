import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { REFLECTION_MESSAGE } from '../../loop/guards/repeat-fingerprint.js';
import { stream } from '../../random/streams.js';
import { loadScenario } from '../../scenarios/loader.js';
import type { Persona } from '../../scenarios/persona-schema.js';
import { decide, type Action } from './policy.js';
import { readTranscript } from './transcript-reader.js';

const SCENARIO = loadScenario('fetch-transform-write');
const { plan } = SCENARIO;
const DEFAULT = SCENARIO.persona;
/** The default persona without its small share of re-sending a refused call, so every seed shows the competent reaction. */
const COMPETENT: Persona = { ...DEFAULT, reflection: { resend_blocked: 0 } };
const STUBBORN: Persona = { ...DEFAULT, reflection: { resend_blocked: 1 } };
const TOOLS = new Set(['get_user', 'search_users', 'transform_record', 'write_result', 'read_result']);
const WITH_HELP = new Set([...TOOLS, 'request_human_help']);

const USER = JSON.stringify(SCENARIO.world.records['users']!['u_1042']);
const TRANSFORMED =
  '{"id":"u_1042","display_name":"Ada Lovelace","email":"ada.lovelace@example.com","email_domain":"example.com","initials":"AL"}';
const TIMEOUT = 'Error: Network timeout: get_user: request timed out after 10000 ms. May succeed if retried.';
const WRITE_TIMEOUT =
  'Error: Network timeout: write_result: request timed out after 10000 ms. The operation may have been applied; check before retrying.';

let ids = 0;
function exchange(name: string, input: Record<string, unknown>, content: string, isError = false): MessageParam[] {
  const id = `toolu_r${ids++}`;
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
  ];
}

const start: MessageParam = { role: 'user', content: SCENARIO.prompt };
const fetched = () => exchange('get_user', { user_id: 'u_1042' }, USER);
const transformed = () => exchange('transform_record', { record: JSON.parse(USER) }, TRANSFORMED);
const refused = (name: string, input: Record<string, unknown>) => exchange(name, input, REFLECTION_MESSAGE, true);
const WRITE = { key: 'u_1042', value: JSON.parse(TRANSFORMED) };

function next(messages: MessageParam[], seed: number, persona = COMPETENT, offered = TOOLS): Action {
  return decide({
    state: readTranscript(messages, plan.steps),
    persona,
    plan,
    offered,
    helpTool: offered.has('request_human_help') ? 'request_human_help' : null,
    forcedTool: null,
    toolsDisabled: false,
    rng: stream({ sweepSeed: 0, scenario: 'after-refusal-test', runSeed: seed }, 'model', messages.length),
  });
}

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);
const called = (action: Action) => (action.kind === 'call' ? action.tool : 'final answer');

describe('after a detour the harness refused to run again', () => {
  const transcript = [
    start,
    ...fetched(),
    ...transformed(),
    ...exchange('search_users', { query: 'lovelace' }, '{"query":"lovelace","matches":[{"id":"u_1042"}]}'),
    ...refused('search_users', { query: 'lovelace' }),
  ];

  it('goes back to its plan: the next step not yet done, on every seed', () => {
    for (const seed of SEEDS) expect([seed, called(next(transcript, seed))]).toEqual([seed, 'write_result']);
  });

  it('sends the refused call again only as a persona trait (reflection.resend_blocked)', () => {
    for (const seed of SEEDS) {
      const action = next(transcript, seed, STUBBORN);
      expect(action.kind === 'call' ? [action.tool, action.input] : action).toEqual([
        'search_users',
        { query: 'lovelace' },
      ]);
    }
    const resent = SEEDS.filter((seed) => called(next(transcript, seed, DEFAULT)) === 'search_users').length;
    expect(resent).toBeLessThan(SEEDS.length / 4);
  });
});

describe('after a plan step the harness refused to run again', () => {
  it('whose identical call failed: changes the call (another form of it), never the same call again', () => {
    const transcript = [
      start,
      ...exchange('get_user', { user_id: 'u_1042' }, TIMEOUT, true),
      ...refused('get_user', { user_id: 'u_1042' }),
    ];
    for (const seed of SEEDS) {
      const action = next(transcript, seed);
      expect(action.kind).toBe('call');
      if (action.kind !== 'call') continue;
      expect([seed, action.tool]).toEqual([seed, 'get_user']);
      expect(action.input).not.toEqual({ user_id: 'u_1042' });
    }
  });

  it('whose identical write failed and may have gone through: reads the outbox back before anything else', () => {
    const transcript = [
      start,
      ...fetched(),
      ...transformed(),
      ...exchange('write_result', WRITE, WRITE_TIMEOUT, true),
      ...refused('write_result', WRITE),
    ];
    for (const seed of SEEDS) expect([seed, called(next(transcript, seed))]).toEqual([seed, 'read_result']);
  });
});

describe('a refusal is not evidence that the task is failing', () => {
  /** Write timed out, read back (nothing there), the write refused twice by a guard with a wider window. */
  const transcript = [
    start,
    ...fetched(),
    ...transformed(),
    ...exchange('write_result', WRITE, WRITE_TIMEOUT, true),
    ...exchange('read_result', { key: 'u_1042' }, '{"key":"u_1042","found":false}'),
    ...refused('write_result', WRITE),
    ...refused('write_result', WRITE),
  ];

  it('counts only what the tools answered as failures at a step', () => {
    expect(readTranscript(transcript, plan.steps).failuresAt).toEqual([0, 0, 1]);
  });

  it('does not ask for help on refusals alone, though help is offered', () => {
    for (const seed of SEEDS)
      expect([seed, called(next(transcript, seed, COMPETENT, WITH_HELP))]).not.toEqual([seed, 'request_human_help']);
  });

  it('asks for help once genuine failures at the step reach the persona threshold', () => {
    const failing = [
      start,
      ...fetched(),
      ...transformed(),
      ...exchange('write_result', WRITE, WRITE_TIMEOUT, true),
      ...exchange('write_result', WRITE, WRITE_TIMEOUT, true),
      ...exchange('write_result', WRITE, WRITE_TIMEOUT, true),
      ...refused('write_result', WRITE),
    ];
    const helped = SEEDS.filter((seed) => called(next(failing, seed, COMPETENT, WITH_HELP)) === 'request_human_help');
    expect(helped.length).toBeGreaterThan(0);
  });
});
