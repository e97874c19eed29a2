import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { answeredNow } from '../tools/answered-now.test-helpers.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ToolError } from '../tools/tool-error.js';
import type { Guard, LoopContext } from './guard.js';
import { guardHooks } from './guard-hooks.js';
import type { ToolHost } from './tool-host.js';
import { executeToolCall } from './tool-executor.js';

const CALL: ToolUseBlock = { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {}, caller: { type: 'direct' } };

function failingHost(): ToolHost & { executions: number } {
  return {
    executions: 0,
    definitions: [{ name: 'lookup', input_schema: { type: 'object' } }],
    traits: () => ({ sideEffecting: false, concurrencySafe: true }),
    execute(): ToolExecution {
      this.executions += 1;
      return { kind: 'error', error: new ToolError('timeout', 'timed out'), latencyMs: 10, fault: 'timeout' };
    },
  };
}

const context = (): LoopContext => ({
  clock: new VirtualClock(),
  emit: () => {},
  toolCalls: 0,
  toolExecutions: 0,
  toolTraits: () => undefined,
  iteration: 1,
  messages: [],
});

describe('executeToolCall', () => {
  it('words a failure with the last guard that words errors, and plainly without one', () => {
    const first: Guard = { name: 'first', describeError: () => 'first wording' };
    const last: Guard = { name: 'last', describeError: (error) => `last wording of ${error.code}` };
    const worded = answeredNow(
      executeToolCall(CALL, failingHost(), guardHooks([first, { name: 'other' }, last]), context()),
    );
    expect(worded.block).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'last wording of timeout',
      is_error: true,
    });
    expect(answeredNow(executeToolCall(CALL, failingHost(), guardHooks([]), context())).block.content).toBe(
      'Error: timed out',
    );
  });

  it('nests execution wrappers in guard order, the first innermost, and counts every execution', () => {
    const order: string[] = [];
    const wrapper = (name: string): Guard => ({
      name,
      aroundExecution(_ctx, next) {
        order.push(`${name} in`);
        next();
        const execution = next();
        order.push(`${name} out`);
        return execution;
      },
    });
    const host = failingHost();
    const report = answeredNow(
      executeToolCall(CALL, host, guardHooks([wrapper('inner'), wrapper('outer')]), context()),
    );
    expect(order).toEqual(['outer in', 'inner in', 'inner out', 'inner in', 'inner out', 'outer out']);
    expect(report.executions).toBe(4);
    expect(host.executions).toBe(4);
  });
});
