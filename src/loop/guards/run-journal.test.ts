import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.js';
import type { ModelRequest } from '../../model/model-client.js';
import type { LoopContext } from '../guard.js';
import { RunJournal } from '../journal/run-journal.js';
import { APPEND_JOURNAL_TOOL, GET_JOURNAL_TOOL, runJournal, UPDATE_JOURNAL_TOOL } from './run-journal.js';

const ctx: LoopContext = {
  clock: new VirtualClock(),
  emit: () => undefined,
  toolCalls: 0,
  toolExecutions: 0,
  toolTraits: () => undefined,
  iteration: 0,
  messages: [],
};
const call = (name: string, input: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id: `toolu_${name}`,
  name,
  input,
  caller: { type: 'direct' },
});
const request: ModelRequest = {
  model: 'm',
  max_tokens: 10,
  system: 'You are an agent.',
  messages: [{ role: 'user', content: 'go' }],
};

describe('runJournal', () => {
  it('offers the three journal tools and answers them itself, keeping what they record', () => {
    const journal = new RunJournal();
    const guard = runJournal({ journal });
    expect(guard.tools?.map((tool) => tool.name)).toEqual([GET_JOURNAL_TOOL, UPDATE_JOURNAL_TOOL, APPEND_JOURNAL_TOOL]);
    expect(
      guard.beforeToolCall?.(
        call(UPDATE_JOURNAL_TOOL, { objective: 'brief on heat', handoff_next_action: 'read src_02' }),
        ctx,
      ),
    ).toEqual({ kind: 'answer', content: 'Journal updated.', isError: false });
    expect(
      guard.beforeToolCall?.(
        call(APPEND_JOURNAL_TOOL, { section: 'verified_findings', text: 'src_01: 5 C cooler' }),
        ctx,
      ),
    ).toMatchObject({ kind: 'answer', isError: false });
    expect(guard.beforeToolCall?.(call(APPEND_JOURNAL_TOOL, { section: 'gossip', text: 'x' }), ctx)).toMatchObject({
      kind: 'answer',
      isError: true,
    });
    expect(guard.beforeToolCall?.(call('read_source', {}), ctx)).toBeUndefined();
    const record = journal.toRecord();
    expect(record).toEqual({
      objective: 'brief on heat',
      current_state: '',
      handoff_next_action: 'read src_02',
      verified_findings: ['src_01: 5 C cooler'],
      decisions: [],
      artifacts: [],
      open_questions: [],
      blockers: [],
    });
    expect(JSON.parse((guard.beforeToolCall!(call(GET_JOURNAL_TOOL, {}), ctx) as { content: string }).content)).toEqual(
      record,
    );
  });

  it('shows a digest of at most the set length in the system prompt, once there is something in it', async () => {
    const journal = new RunJournal();
    const guard = runJournal({ journal, digestChars: 120 });
    expect(await guard.prepareRequest?.(request, ctx)).toBe(request);
    for (let i = 1; i <= 8; i++) journal.append('verified_findings', `finding number ${i} of the sources read so far`);
    const system = (await guard.prepareRequest?.(request, ctx))?.system as string;
    expect(
      system.startsWith(
        'You are an agent.\n\nRun journal (kept with the journal tools):\nverified_findings:\n- finding number 1',
      ),
    ).toBe(true);
    expect(system.length - 'You are an agent.\n\n'.length).toBe(120);
    expect(journal.render()).toContain('- finding number 8 of the sources read so far');
  });
});
