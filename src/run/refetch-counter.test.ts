import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../loop/events.js';
import { loadScenario } from '../scenarios/loader.js';
import { RefetchCounter } from './refetch-counter.js';

const scenario = loadScenario('fetch-transform-write');
const call = (id: string, tool: string, input: unknown): AgentEvent => ({
  type: 'agent.tool.call',
  at: 0,
  id,
  tool,
  input,
});
const result = (id: string, tool: string, content: string, isError = false): AgentEvent => ({
  type: 'agent.tool.result',
  at: 0,
  id,
  tool,
  isError,
  content,
});

describe('RefetchCounter', () => {
  it('counts a read of a plan step only once an identical call had a readable, non-error result', () => {
    const counter = new RefetchCounter(scenario);
    const events: AgentEvent[] = [
      call('a', 'get_user', { user_id: 'u_1042' }),
      result('a', 'get_user', 'Error: Network timeout', true),
      call('b', 'get_user', { user_id: 'u_1042' }),
      result('b', 'get_user', '{"id":"u_10'),
      // Two calls of one turn, answered in order: the first answer is good.
      call('c', 'get_user', { user_id: 'u_1042' }),
      call('d', 'get_user', { user_id: 'u_1042' }),
      result('c', 'get_user', '{"id":"u_1042"}'),
      result('d', 'get_user', '{"id":"u_1042"}'),
    ];
    for (const event of events) counter.observe(event);
    expect(counter.count).toBe(0);
    counter.observe(call('e', 'get_user', { user_id: 'u_1042' }));
    counter.observe(call('f', 'get_user', { user_id: 'u_1042', fields: 'all' }));
    expect(counter.count).toBe(1);
  });

  it('does not count writes, detours or other arguments', () => {
    const counter = new RefetchCounter(scenario);
    for (const [id, tool, input] of [
      ['a', 'write_result', { key: 'u_1042', value: { a: 1 } }],
      ['b', 'search_users', { query: 'lovelace' }],
      ['c', 'get_user', { user_id: 'u_1043' }],
    ] as const) {
      counter.observe(call(id, tool, input));
      counter.observe(result(id, tool, '{"ok":true}'));
      counter.observe(call(`${id}2`, tool, input));
    }
    expect(counter.count).toBe(0);
  });
});
