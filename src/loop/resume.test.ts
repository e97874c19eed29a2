import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../durability/checkpoint-store.js';
import { CrashingDurability, SimulatedCrash } from '../durability/crash-injection.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import { BudgetedAgentLoop } from './budgeted-agent-loop.js';
import type { SavedRun } from './durability.js';
import type { AgentEvent } from './events.js';
import type { ToolHost } from './tool-host.js';

const TOOLS: Tool[] = [
  { name: 'lookup', input_schema: { type: 'object' } },
  { name: 'send_email', input_schema: { type: 'object' } },
];

/** lookup is a read; send_email a write, recorded in `sent`. */
function host(): ToolHost & { readonly executed: string[]; readonly sent: unknown[] } {
  const executed: string[] = [];
  const sent: unknown[] = [];
  return {
    definitions: TOOLS,
    executed,
    sent,
    traits: (name) =>
      name === 'lookup'
        ? { sideEffecting: false, concurrencySafe: true }
        : name === 'send_email'
          ? { sideEffecting: true, concurrencySafe: false }
          : undefined,
    execute(name, input): ToolExecution {
      executed.push(name);
      if (name === 'send_email') sent.push(input);
      return { kind: 'ok', content: `{"${name}":"ok"}`, latencyMs: 100, fault: null };
    },
  };
}

const TURNS: ScriptedTurn[] = [
  { calls: [{ name: 'lookup', input: { q: 1 } }] },
  { calls: [{ name: 'send_email', input: { to: 'ada@example.com' } }] },
  { text: 'Sent.' },
];

/** Runs the script with checkpoints in `store`, crashing at point `crashAt`; returns what the store can resume. */
async function crashAt(
  store: CheckpointStore,
  point: number,
  tools = host(),
): Promise<{ saved: SavedRun; crash: SimulatedCrash; tools: ReturnType<typeof host> }> {
  const durability = new CrashingDurability(store.forRun('r', 'sys'), point);
  const loop = new BudgetedAgentLoop({ model: new ScriptedModel(TURNS), tools, system: 'sys', durability });
  const crash = await loop.run('send the email').then(
    () => {
      throw new Error('no crash');
    },
    (error: unknown) => error as SimulatedCrash,
  );
  expect(crash).toBeInstanceOf(SimulatedCrash);
  const resume = store.resumePoint('r');
  if (resume.kind !== 'resumable') throw new Error(resume.reason);
  return { saved: resume.saved, crash, tools };
}

/** A new process: the same tools (the world outlives it), a model that answers from where the transcript stands. */
function resumeLoop(store: CheckpointStore, tools: ToolHost, from: number, events: AgentEvent[] = [], system = 'sys') {
  return new BudgetedAgentLoop({
    model: new ScriptedModel(TURNS, { startAt: from }),
    tools,
    system,
    durability: store.forRun('r', system),
    onEvent: (event) => events.push(event),
  });
}

describe('BudgetedAgentLoop.resume', () => {
  // Points of the script: 1 user_input, 2 model_response, 3 before lookup, 4 mid lookup,
  // 5 after lookup, 6 tool_results, 7 model_response, 8 before send, 9 mid send, 10 after send, ...
  it('replays a call completed before the crash from the envelope, without running it again', async () => {
    const store = new CheckpointStore(':memory:');
    const { saved, crash, tools } = await crashAt(store, 10);
    expect(crash.point).toMatchObject({ kind: 'after_tool', tool: 'send_email' });
    expect(tools.sent).toHaveLength(1);
    const events: AgentEvent[] = [];
    const result = await resumeLoop(store, tools, 2, events).resume(saved);

    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'Sent.' });
    expect(tools.sent).toHaveLength(1);
    expect(events.filter((event) => event.type === 'agent.tool.replayed')).toEqual([
      { type: 'agent.tool.replayed', at: expect.any(Number), id: 'toolu_script_1_0', tool: 'send_email' },
    ]);
    expect(result.metrics.toolCalls).toBe(2);
  });

  it('halts waiting_on_human when a side-effecting call was started and may have run: never a duplicate write', async () => {
    const store = new CheckpointStore(':memory:');
    const { saved, tools } = await crashAt(store, 9);
    expect(tools.sent).toHaveLength(1);
    const result = await resumeLoop(store, tools, 2).resume(saved);
    expect(result.outcome).toMatchObject({
      kind: 'waiting_on_human',
      reason: expect.stringMatching(/^resume-unsafe: the send_email call toolu_script_1_0 was started/),
    });
    expect(tools.sent).toHaveLength(1);
    expect(store.resumePoint('r')).toEqual({
      kind: 'refused',
      reason: 'run r has ended (last checkpoint: human_pause)',
    });
  });

  it('runs a started idempotent call again, and a call never started as usual', async () => {
    const store = new CheckpointStore(':memory:');
    const { saved, tools } = await crashAt(store, 4);
    expect(tools.executed).toEqual(['lookup']);
    const result = await resumeLoop(store, tools, 1).resume(saved);
    expect(result.outcome.kind).toBe('completed');
    expect(tools.executed).toEqual(['lookup', 'lookup', 'send_email']);
  });

  it('after a crash at a checkpoint, goes on with the next model call', async () => {
    const store = new CheckpointStore(':memory:');
    const { saved, tools } = await crashAt(store, 6);
    expect(saved.boundary).toBe('tool_results');
    const result = await resumeLoop(store, tools, 1).resume(saved);
    expect(result.outcome.kind).toBe('completed');
    expect(tools.executed).toEqual(['lookup', 'send_email']);
    expect(result.messages.map((message: MessageParam) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('halts waiting_on_human when the system prompt changed since the checkpoint', async () => {
    const store = new CheckpointStore(':memory:');
    const { saved, tools } = await crashAt(store, 6);
    const result = await resumeLoop(store, tools, 1, [], 'a different system prompt').resume(saved);
    expect(result.outcome).toEqual({
      kind: 'waiting_on_human',
      reason: 'the system prompt changed since the run was checkpointed',
    });
    expect(tools.executed).toEqual(['lookup']);
  });

  it('refuses to resume a run that ended', async () => {
    const loop = new BudgetedAgentLoop({ model: new ScriptedModel([]), tools: host() });
    await expect(
      loop.resume({
        messages: [],
        metrics: {} as SavedRun['metrics'],
        at: 0,
        boundary: 'final_response',
        systemHash: '',
      }),
    ).rejects.toThrow(/has ended and cannot be resumed/);
  });
});
