import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPromptHash } from '../loop/durability.js';
import type { RunMetrics } from '../loop/outcome.js';
import { fillingDisk } from '../results/full-disk.test-helpers.js';
import { UserInputError } from '../user-input-error.js';
import { CheckpointStore } from './checkpoint-store.js';

const METRICS: RunMetrics = {
  toolCalls: 1,
  toolExecutions: 1,
  toolRetries: 0,
  modelCalls: 1,
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
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

describe('CheckpointStore in a journal file', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spiralbench-journal-'));
    path = join(dir, 'checkpoints.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const block = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: '{"sent":true}' };
  const second = { ...call, id: 'toolu_2' } as ToolUseBlock;

  /** r1 stopped after a model response, one call completed and one only started; r2 ended. */
  function record(store: CheckpointStore): void {
    const run = store.forRun('r1', 'system');
    run.checkpoint('user_input', { messages: [prompt], metrics: METRICS, at: 0 });
    run.checkpoint('model_response', { messages: [prompt, reply], metrics: METRICS, at: 1500 });
    run.startToolCall(call, 1600);
    run.completeToolCall('toolu_1', block, 1700);
    run.startToolCall(second, 1800);
    const ended = store.forRun('r2', undefined);
    ended.checkpoint('user_input', { messages: [prompt], metrics: METRICS, at: 0 });
    ended.checkpoint('final_response', { messages: [prompt, reply], metrics: METRICS, at: 900 });
  }

  /** Every answer the store gives about the runs `record` wrote. */
  function answers(store: CheckpointStore) {
    const r1 = store.forRun('r1', 'system');
    return {
      r1: store.resumePoint('r1'),
      r2: store.resumePoint('r2'),
      completed: ['toolu_1', 'toolu_2', 'toolu_3'].map((id) => store.isCompleted('r1', id)),
      calls: ['toolu_1', 'toolu_2', 'toolu_3'].map((id) => r1.toolCall(id)),
    };
  }

  const RECORDED = {
    r1: {
      kind: 'resumable',
      saved: {
        messages: [prompt, reply],
        metrics: METRICS,
        at: 1500,
        boundary: 'model_response',
        systemHash: systemPromptHash('system'),
      },
    },
    r2: { kind: 'refused', reason: 'run r2 has ended (last checkpoint: final_response)' },
    completed: [true, false, false],
    calls: [{ state: 'completed', block }, { state: 'started' }, undefined],
  };

  const lines = () => readFileSync(path, 'utf8').split('\n').slice(0, -1);

  it('answers in a new store, as in another process, what the store that wrote the file answered', () => {
    const writer = new CheckpointStore(path);
    record(writer);
    expect(answers(writer)).toEqual(RECORDED);
    writer.close();

    const reader = new CheckpointStore(path);
    expect(answers(reader)).toEqual(RECORDED);
    // The resumed run goes on writing to the same file, and a third process sees it.
    reader
      .forRun('r1', 'system')
      .checkpoint('tool_results', { messages: [prompt, reply, results], metrics: METRICS, at: 2000 });
    reader.close();
    const third = new CheckpointStore(path);
    const point = third.resumePoint('r1');
    expect(point.kind === 'resumable' && point.saved.messages).toEqual([prompt, reply, results]);
    expect(third.isCompleted('r1', 'toolu_1')).toBe(true);
    third.close();
  });

  it('writes one JSON line per change, a checkpoint carrying only the messages from the first that changed', () => {
    const store = new CheckpointStore(path);
    const run = store.forRun('r1', undefined);
    run.checkpoint('tool_results', { messages: [prompt, reply, results], metrics: METRICS, at: 0 });
    const nudged: MessageParam = { role: 'user', content: 'Loop check.' };
    run.checkpoint('tool_results', { messages: [prompt, reply, nudged], metrics: METRICS, at: 1 });
    run.checkpoint('tool_results', { messages: [prompt], metrics: METRICS, at: 2 });
    run.startToolCall(call, 3);
    run.completeToolCall('toolu_1', block, 4);
    store.close();
    const written = lines().map((line) => JSON.parse(line));
    expect(written.map((entry) => [entry.kind, entry.from, entry.messages])).toEqual([
      ['checkpoint', 0, [prompt, reply, results]],
      ['checkpoint', 2, [nudged]],
      ['checkpoint', 1, []],
      ['tool_started', undefined, undefined],
      ['tool_completed', undefined, undefined],
    ]);
    const reopened = new CheckpointStore(path);
    const point = reopened.resumePoint('r1');
    expect(point.kind === 'resumable' && point.saved.messages).toEqual([prompt]);
    reopened.close();
  });

  it.each([
    ['a line cut off before its newline', '{"kind":"tool_started","run":"r1","id":"tool'],
    ['a whole line that is not JSON', '{"kind":"tool_started","run":\n'],
    ['bytes a power cut left as zeros', '\0\0\0\0\0\0\0\0'],
  ])('drops a torn last line (%s), cuts it off the file, and appends after it', (_name, tail) => {
    const writer = new CheckpointStore(path);
    record(writer);
    writer.close();
    const whole = readFileSync(path, 'utf8');
    appendFileSync(path, tail);

    const reopened = new CheckpointStore(path);
    expect(answers(reopened)).toEqual(RECORDED);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    reopened.forRun('r1', 'system').startToolCall({ ...call, id: 'toolu_3' } as ToolUseBlock, 1900);
    reopened.close();

    const again = new CheckpointStore(path);
    expect(again.forRun('r1', 'system').toolCall('toolu_3')).toEqual({ state: 'started' });
    expect(lines()).toHaveLength(whole.split('\n').length);
    again.close();
  });

  it.each([
    ['not JSON', 'not json', 'one JSON entry per line; got "not json"'],
    ['JSON of the wrong shape', '{"kind":"checkpoint","run":"r1"}', 'boundary'],
  ])(
    'refuses a bad line before the last (%s), naming the file and line, and leaves the file as it was',
    (_name, bad, expected) => {
      const writer = new CheckpointStore(path);
      record(writer);
      writer.close();
      const damaged = lines();
      damaged[2] = bad;
      writeFileSync(path, `${damaged.join('\n')}\n`);

      const open = () => new CheckpointStore(path);
      expect(open).toThrow(UserInputError);
      expect(open).toThrow(`${path}:3: `);
      expect(open).toThrow(expected);
      expect(readFileSync(path, 'utf8')).toBe(`${damaged.join('\n')}\n`);
    },
  );

  it('refuses a file that is an SQLite database (the store of earlier versions) and leaves it alone', () => {
    const database = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(100)]);
    writeFileSync(path, database);
    expect(() => new CheckpointStore(path)).toThrow(
      `${path}: a checkpoint journal (JSON lines); this is an SQLite database`,
    );
    expect(readFileSync(path)).toEqual(database);
  });

  it('leaves no part of a change a full disk cut short, and appends whole lines once there is room', () => {
    const disk = fillingDisk(Number.MAX_SAFE_INTEGER);
    const store = new CheckpointStore(path, disk.fs);
    record(store);
    const whole = readFileSync(path, 'utf8');
    disk.setRoom(10);
    const run = store.forRun('r1', 'system');
    expect(() => run.startToolCall({ ...call, id: 'toolu_3' } as ToolUseBlock, 1900)).toThrow('ENOSPC');
    expect(readFileSync(path, 'utf8')).toBe(whole);
    expect(run.toolCall('toolu_3')).toBeUndefined();

    disk.setRoom(Number.MAX_SAFE_INTEGER);
    run.startToolCall({ ...call, id: 'toolu_4' } as ToolUseBlock, 2000);
    store.close();
    const reopened = new CheckpointStore(path);
    expect(answers(reopened)).toEqual(RECORDED);
    expect(reopened.forRun('r1', 'system').toolCall('toolu_4')).toEqual({ state: 'started' });
    reopened.close();
  });
});
