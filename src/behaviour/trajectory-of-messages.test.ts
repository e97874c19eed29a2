import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { resolveArms } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import { loadScenarioSource } from '../sweep/scenario-source.js';
import { trajectoryOfMessages } from './trajectory-of-messages.js';

describe('trajectoryOfMessages', () => {
  it('pairs tool_use blocks with the next message’s results, in request order, and keeps text replies as text turns', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'Fetch u_1 and u_2.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Fetching both.' },
          { type: 'tool_use', id: 't1', name: 'get_user', input: { id: 'u_1' } },
          { type: 'tool_use', id: 't2', name: 'get_user', input: { id: 'u_2' } },
        ],
      },
      {
        role: 'user',
        content: [
          // Answered out of order: the calls keep their request order.
          {
            type: 'tool_result',
            tool_use_id: 't2',
            is_error: true,
            content: [
              { type: 'text', text: 'Error: user ' },
              { type: 'text', text: 'not found' },
            ],
          },
          { type: 'tool_result', tool_use_id: 't1', content: '{"id":"u_1"}' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'write', input: 'not an object' }] },
      { role: 'user', content: 'Tool budget exhausted (3 calls). Summarize what you have learned.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Done: u_1 found, u_2 missing.' }] },
    ];
    expect(trajectoryOfMessages('run-1', messages)).toEqual({
      id: 'run-1',
      turns: [
        {
          calls: [
            { name: 'get_user', input: { id: 'u_1' }, result: { text: '{"id":"u_1"}' } },
            { name: 'get_user', input: { id: 'u_2' }, result: { text: 'Error: user not found', is_error: true } },
          ],
        },
        { calls: [{ name: 'write', input: { value: 'not an object' }, result: null }] },
        { text: 'Done: u_1 found, u_2 missing.' },
      ],
    });
  });

  it("reads a real run's transcript: one call for each tool call the record counts", async () => {
    const { scenario } = await loadScenarioSource('fetch-transform-write');
    const [arm] = resolveArms(['none']);
    for (const seed of [1, 2, 3]) {
      const { record, result } = await runOne({ sweepSeed: 0, scenario, arm: arm!, seed });
      const { turns } = trajectoryOfMessages(`${seed}`, result.messages);
      const calls = turns.flatMap((turn) => ('calls' in turn ? turn.calls : []));
      expect(calls.length).toBe(record.tool_calls);
      expect(calls.every((call) => call.result !== null)).toBe(true);
    }
  });
});
