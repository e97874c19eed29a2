import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { stream } from '../../random/streams.js';
import { pinnedResults } from './pinned-results.js';
import { splitIndex } from './transcript-split.js';

/** A loop-shaped transcript: the prompt, then turns of 1-3 tool calls, each answered in the next user message (sometimes with a nudge after the results). */
function transcript(turns: number, seed: number): MessageParam[] {
  const rng = stream({ sweepSeed: 0, scenario: 'split-test', runSeed: seed }, 'shape', 0);
  const messages: MessageParam[] = [{ role: 'user', content: 'task' }];
  for (let t = 0; t < turns; t++) {
    const ids = Array.from({ length: 1 + rng.int(3) }, (_, i) => `t${t}_${i}`);
    messages.push({
      role: 'assistant',
      content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'x', input: {} })),
    });
    const results = ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' }));
    messages.push({
      role: 'user',
      content: rng.chance(0.3) ? [...results, { type: 'text' as const, text: 'nudge' }] : results,
    });
  }
  return messages;
}

const uses = (messages: readonly MessageParam[]) =>
  messages.flatMap((m) =>
    typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])),
  );
const answers = (messages: readonly MessageParam[]) =>
  messages.flatMap((m) =>
    typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])),
  );

describe('splitIndex', () => {
  it('keeps at least the last N messages and starts them at an assistant turn, so no call is parted from its result', () => {
    for (let seed = 1; seed <= 50; seed++) {
      for (const keep of [1, 2, 4, 5, 10]) {
        const messages = transcript(3 + (seed % 12), seed);
        const split = splitIndex(messages, keep);
        if (split === null) {
          // Only the first turn could start the kept part, and then nothing older would hold a turn.
          expect(
            messages.slice(0, Math.max(0, messages.length - keep + 1)).filter((m) => m.role === 'assistant').length,
          ).toBeLessThan(2);
          continue;
        }
        expect(messages[split]?.role).toBe('assistant');
        expect(messages.length - split).toBeGreaterThanOrEqual(keep);
        expect(messages.length - split).toBeLessThanOrEqual(keep + 1);
        const kept = messages.slice(split);
        const older = messages.slice(0, split);
        expect(answers(kept).every((id) => uses(kept).includes(id))).toBe(true);
        expect(answers(older).sort()).toEqual(uses(older).sort());
      }
    }
  });

  it('is null when nothing older than the kept messages holds a turn', () => {
    expect(splitIndex(transcript(5, 1), 10)).toBeNull();
    expect(splitIndex(transcript(6, 1), 10)).toBe(3);
  });
});

describe('pinnedResults', () => {
  const turn = (id: string, name: string, content: string, isError = false): MessageParam[] => [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input: { id } }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
    },
  ];

  it('picks the latest successful result of each distinct tool, skipping errors, oldest first', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'task' },
      ...turn('a1', 'read', 'first read'),
      ...turn('b1', 'search', 'found it'),
      ...turn('a2', 'read', 'second read'),
      ...turn('a3', 'read', 'Error: read: timed out', true),
      ...turn('c1', 'write', 'Error: write: refused', true),
    ];
    expect(pinnedResults(messages)).toEqual([
      { name: 'search', input: { id: 'b1' }, text: 'found it' },
      { name: 'read', input: { id: 'a2' }, text: 'second read' },
    ]);
  });
});
