import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import type { ReadBack } from '../../tools/read-back.js';
import { ToolError } from '../../tools/tool-error.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { Guard } from '../guard.js';
import type { ToolHost } from '../tool-host.js';
import { errorClassification } from './error-classification.js';
import { writeVerification } from './write-verification.js';

const READ_BACK: ReadBack = { tool: 'list_sent', input: { to: 'to' }, count: 'count' };

/** How the send goes: answered or failed, and whether the email left either way. */
interface Send {
  readonly answer: 'ok' | 'garbled' | 'timeout';
  readonly leaves: boolean;
}

/**
 * A mailbox: `send` (a write, declaring its read-back) and `list_sent` (the read). `sends`
 * says how each send goes; `failedReads` fails the reads whose index it lists; `readBack`
 * null: the write declares none.
 */
function mailbox(
  sends: Send[],
  failedReads: number[] = [],
  readBack: ReadBack | null = READ_BACK,
  emptyReads: number[] = [],
) {
  const sent: string[] = [];
  const calls: string[] = [];
  let sendIndex = 0;
  let readIndex = 0;
  const definitions: Tool[] = [
    { name: 'send', input_schema: { type: 'object' } },
    { name: 'list_sent', input_schema: { type: 'object' } },
  ];
  const host: ToolHost = {
    definitions,
    traits: (name) =>
      name === 'send'
        ? { sideEffecting: true, concurrencySafe: false, ...(readBack === null ? {} : { readBack }) }
        : name === 'list_sent'
          ? { sideEffecting: false, concurrencySafe: true }
          : undefined,
    execute(name, input): ToolExecution {
      calls.push(name);
      const to = String(input['to']);
      if (name === 'list_sent') {
        const index = readIndex++;
        if (failedReads.includes(index))
          return { kind: 'error', error: new ToolError('timeout', 'timed out'), latencyMs: 50, fault: 'timeout' };
        if (emptyReads.includes(index)) return { kind: 'ok', content: '{}', latencyMs: 50, fault: 'empty_result' };
        const count = sent.filter((address) => address === to).length;
        return { kind: 'ok', content: JSON.stringify({ to, found: count > 0, count }), latencyMs: 50, fault: null };
      }
      const how = sends[Math.min(sendIndex++, sends.length - 1)]!;
      if (how.leaves) sent.push(to);
      if (how.answer === 'timeout')
        return { kind: 'error', error: new ToolError('timeout', 'timed out'), latencyMs: 100, fault: 'timeout' };
      const content = how.answer === 'ok' ? '{"ok":true}' : '{"ok":tr';
      return { kind: 'ok', content, latencyMs: 100, fault: how.answer === 'ok' ? null : 'malformed_json' };
    },
  };
  return { host, sent, calls };
}

async function sendOnce(tools: ReturnType<typeof mailbox>, guards: Guard[] = [writeVerification()]) {
  const events: AgentEvent[] = [];
  const model = new ScriptedModel([{ calls: [{ name: 'send', input: { to: 'ada@example.com' } }] }, { text: 'done' }]);
  const result = await new BudgetedAgentLoop({
    model,
    tools: tools.host,
    guards,
    onEvent: (event) => events.push(event),
  }).run('Send it.');
  const results = model.requests[1]!.messages.at(-1)!.content;
  const block = Array.isArray(results) && results[0]?.type === 'tool_result' ? results[0] : null;
  const verified = events.flatMap((event) => (event.type === 'agent.write.verified' ? [event.finding] : []));
  return { block, verified, executions: result.metrics.toolExecutions };
}

describe('writeVerification', () => {
  it('reads before and after a write that went well, and leaves its answer alone', async () => {
    const tools = mailbox([{ answer: 'ok', leaves: true }]);
    const { block, verified, executions } = await sendOnce(tools);
    expect(block).toMatchObject({ content: '{"ok":true}' });
    expect(block?.is_error).toBeUndefined();
    expect(verified).toEqual([]);
    expect(tools.calls).toEqual(['list_sent', 'send', 'list_sent']);
    // The reads are executions of the call: what the backend saw.
    expect(executions).toBe(3);
  });

  it('answers a failed write that took effect as done, so it is not sent again', async () => {
    const { block, verified } = await sendOnce(mailbox([{ answer: 'timeout', leaves: true }]));
    expect(block?.is_error).toBeUndefined();
    expect(JSON.parse(String(block?.content))).toMatchObject({ ok: true });
    expect(String(block?.content)).toContain('took effect. Do not repeat it');
    expect(verified).toEqual(['applied']);
  });

  it('says a failed write did not take effect, which classify then words as safe to retry', async () => {
    const tools = mailbox([{ answer: 'timeout', leaves: false }]);
    const plain = await sendOnce(tools);
    expect(plain.block).toMatchObject({ is_error: true });
    expect(String(plain.block?.content)).toContain('reading back with list_sent shows it was not applied');
    expect(plain.verified).toEqual(['not_applied']);

    const worded = await sendOnce(mailbox([{ answer: 'timeout', leaves: false }]), [
      errorClassification(),
      writeVerification(),
    ]);
    expect(String(worded.block?.content)).toContain('May succeed if retried');
    expect(String(worded.block?.content)).not.toContain('may have been applied');
  });

  it('fails a write that answered success but does not show when read back', async () => {
    const { block, verified } = await sendOnce(mailbox([{ answer: 'ok', leaves: false }]));
    expect(block).toMatchObject({ is_error: true });
    expect(String(block?.content)).toContain('does not show the write: it was not applied');
    expect(verified).toEqual(['not_visible']);
  });

  it('counts the writes made before it: an earlier email to the same address is not this one', async () => {
    const tools = mailbox([
      { answer: 'ok', leaves: true },
      { answer: 'timeout', leaves: false },
    ]);
    await sendOnce(tools);
    const second = await sendOnce(tools);
    expect(second.block).toMatchObject({ is_error: true });
    expect(second.verified).toEqual(['not_applied']);
  });

  it("reads again when a read fails, and lets the write's own answer stand when every try fails", async () => {
    // The first read before the write fails: it is read again, and the check goes on.
    const retried = mailbox([{ answer: 'timeout', leaves: true }], [0]);
    expect((await sendOnce(retried)).verified).toEqual(['applied']);
    expect(retried.calls).toEqual(['list_sent', 'list_sent', 'send', 'list_sent']);

    // Three failed reads before the write: nothing to compare with, so no read after it either.
    const before = mailbox([{ answer: 'timeout', leaves: true }], [0, 1, 2]);
    const first = await sendOnce(before);
    expect(first.block).toMatchObject({ is_error: true });
    expect(first.verified).toEqual([]);
    expect(before.calls).toEqual(['list_sent', 'list_sent', 'list_sent', 'send']);

    const after = await sendOnce(mailbox([{ answer: 'timeout', leaves: true }], [1, 2, 3]));
    expect(after.block).toMatchObject({ is_error: true });
    expect(after.verified).toEqual([]);
  });

  it('answers a write that took effect but came back garbled as done, in words that parse', async () => {
    const { block, verified } = await sendOnce(mailbox([{ answer: 'garbled', leaves: true }]));
    expect(JSON.parse(String(block?.content))).toMatchObject({ ok: true });
    expect(verified).toEqual(['applied']);
  });

  it('leaves writes alone whose tool declares no read-back, or one that names a write', async () => {
    const undeclared = mailbox([{ answer: 'timeout', leaves: true }], [], null);
    await sendOnce(undeclared);
    expect(undeclared.calls).toEqual(['send']);
    // Reading back with the write itself would send it again: the guard does not.
    const itself = mailbox([{ answer: 'timeout', leaves: true }], [], {
      tool: 'send',
      input: { to: 'to' },
      count: 'count',
    });
    await sendOnce(itself);
    expect(itself.calls).toEqual(['send']);
  });

  it('reads an answer without its count as no count, not as none: an empty answer is read again', async () => {
    // The read after the write answers {} (an empty result): no finding from it; the next try counts the email.
    const tools = mailbox([{ answer: 'timeout', leaves: true }], [], READ_BACK, [1]);
    const { verified } = await sendOnce(tools);
    expect(verified).toEqual(['applied']);
    expect(tools.calls).toEqual(['list_sent', 'send', 'list_sent', 'list_sent']);
  });
});
