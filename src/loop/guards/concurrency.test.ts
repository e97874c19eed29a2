import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { ToolHost } from '../tool-host.js';
import { concurrency } from './concurrency.js';

const tool = (name: string): Tool => ({ name, description: name, input_schema: { type: 'object', properties: {} } });
const LATENCY: Record<string, number> = { read_a: 300, read_b: 500, write: 200 };

/** Reads are concurrency-safe and take 300 / 500 ms; the write is not and takes 200 ms. */
const host: ToolHost = {
  definitions: [tool('read_a'), tool('read_b'), tool('write')],
  traits: (name) =>
    name in LATENCY ? { sideEffecting: name === 'write', concurrencySafe: name !== 'write' } : undefined,
  execute: (name) => ({ kind: 'ok', content: `{"tool":"${name}"}`, latencyMs: LATENCY[name] ?? 0, fault: null }),
};

async function run(guards: ReturnType<typeof concurrency>[]) {
  const model = new ScriptedModel([
    {
      calls: [
        { name: 'read_b', input: {} },
        { name: 'read_a', input: {} },
        { name: 'write', input: {} },
        { name: 'read_a', input: {} },
      ],
    },
    { text: 'done' },
  ]);
  const events: AgentEvent[] = [];
  const result = await new BudgetedAgentLoop({
    model,
    tools: host,
    guards,
    onEvent: (event) => events.push(event),
  }).run('go');
  const ends = events.filter((event) => event.type === 'agent.tool.result').map((event) => [event.tool, event.at]);
  const toolMs =
    events.find((event) => event.type === 'agent.model.call' && event.iteration === 2)!.at -
    events.find((event) => event.type === 'agent.model.call')!.at;
  return { result, ends, toolMs };
}

describe('concurrency', () => {
  it('runs the reads of a turn together (the slowest sets the time) and the write alone, results in request order', async () => {
    const serial = await run([]);
    const together = await run([concurrency()]);
    // Serially the turn's tools take 500 + 300 + 200 + 300 ms; together the two leading reads
    // overlap (500), the write runs alone (200), then the last read (300).
    // The second model call sees the same transcript either way, so it takes as long.
    expect(serial.toolMs - together.toolMs).toBe(1300 - 1000);
    const start = (serial.ends[0]![1] as number) - 500;
    expect(serial.ends).toEqual([
      ['read_b', start + 500],
      ['read_a', start + 800],
      ['write', start + 1000],
      ['read_a', start + 1300],
    ]);
    expect(together.ends).toEqual([
      ['read_b', start + 500],
      ['read_a', start + 300],
      ['write', start + 700],
      ['read_a', start + 1000],
    ]);
    const results = (messages: typeof serial.result.messages) => JSON.stringify(messages[2]);
    expect(results(together.result.messages)).toBe(results(serial.result.messages));
  });
});
