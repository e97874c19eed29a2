import type { MessageParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { systemPromptHash } from '../loop/durability.js';
import type { RunMetrics } from '../loop/outcome.js';
import { CheckpointStore } from './checkpoint-store.js';

const METRICS: RunMetrics = {
  toolCalls: 1,
  toolExecutions: 1,
  toolRetries: 0,
  modelCalls: 1,
  inputTokens: 10,
  outputTokens: 5,
  virtualMs: 1500,
  modelRetries: 0,
  costUsd: 0.001,
};
const call: ToolUseBlock = {
  type: 'tool_use',
  id: 'toolu_1',
  name: 'send_email',
  input: { to: 'a@b.c' },
  caller: { type: 'direct' },
} as ToolUseBlock;
const prompt: MessageParam = { role: 'user', content: 'send it' };
const reply: MessageParam = { role: 'assistant', content: [call] };
const results: MessageParam = {
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"sent":true}' }],
};

describe('CheckpointStore', () => {
  it('resumes from the last checkpoint with the messages it had, and refuses once the run has ended', () => {
    const store = new CheckpointStore(':memory:');
    const run = store.forRun('r1', 'system');
    run.checkpoint('user_input', { messages: [prompt], metrics: METRICS, at: 0 });
    run.checkpoint('model_response', { messages: [prompt, reply], metrics: METRICS, at: 1500 });
    const point = store.resumePoint('r1');
    expect(point).toEqual({
      kind: 'resumable',
      saved: {
        messages: [prompt, reply],
        metrics: METRICS,
        at: 1500,
        boundary: 'model_response',
        systemHash: systemPromptHash('system'),
      },
    });

    run.checkpoint('final_response', { messages: [prompt, reply, results], metrics: METRICS, at: 2000 });
    expect(store.resumePoint('r1')).toEqual({
      kind: 'refused',
      reason: 'run r1 has ended (last checkpoint: final_response)',
    });
    expect(store.resumePoint('nope')).toEqual({ kind: 'refused', reason: 'no checkpoint of run nope' });
  });

  it('rewrites only from the first message that changed (a replaced last message included)', () => {
    const store = new CheckpointStore(':memory:');
    const run = store.forRun('r1', undefined);
    const messages: MessageParam[] = [prompt, reply, results];
    run.checkpoint('tool_results', { messages, metrics: METRICS, at: 0 });
    const nudged: MessageParam = {
      role: 'user',
      content: [...(results.content as []), { type: 'text', text: 'Loop check.' }],
    };
    run.checkpoint('tool_results', { messages: [prompt, reply, nudged], metrics: METRICS, at: 1 });
    const point = store.resumePoint('r1');
    expect(point.kind === 'resumable' && point.saved.messages).toEqual([prompt, reply, nudged]);
    // A shorter transcript (after a repair) drops the rows past it.
    run.checkpoint('tool_results', { messages: [prompt], metrics: METRICS, at: 2 });
    const shorter = store.resumePoint('r1');
    expect(shorter.kind === 'resumable' && shorter.saved.messages).toEqual([prompt]);
  });

  it('keeps the envelope per (run, tool_call_id): started, then completed with its result', () => {
    const store = new CheckpointStore(':memory:');
    const run = store.forRun('r1', undefined);
    expect(run.toolCall('toolu_1')).toBeUndefined();
    run.startToolCall(call, 100);
    expect(run.toolCall('toolu_1')).toEqual({ state: 'started' });
    expect(store.isCompleted('r1', 'toolu_1')).toBe(false);
    const block = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: '{"sent":true}' };
    run.completeToolCall('toolu_1', block, 200);
    expect(run.toolCall('toolu_1')).toEqual({ state: 'completed', block });
    expect(store.isCompleted('r1', 'toolu_1')).toBe(true);
    // Another run's calls with the same id are its own.
    expect(store.forRun('r2', undefined).toolCall('toolu_1')).toBeUndefined();
  });
});
