import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { saysToolOutputIsData } from '../../model/simulated/vocabulary.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import { answeringHost } from './trust-guards.test-helpers.js';
import { isolationNote, toolOutputIsolation } from './tool-output-isolation.js';

describe('toolOutputIsolation', () => {
  it('wraps every tool output in its marks and says in the system prompt what they mean', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'read_inbox', input: {} }] }, { text: 'done' }]);
    const loop = new BudgetedAgentLoop({
      model,
      tools: answeringHost({ read_inbox: '{"body":"hi"}' }),
      guards: [toolOutputIsolation()],
      system: 'You are a support agent.',
    });
    await loop.run('Read the inbox.');
    const second = model.requests[1]!;
    expect(second.system).toBe(`You are a support agent.\n\n${isolationNote('<<', '>>')}`);
    const results = second.messages.at(-1)!.content;
    expect(Array.isArray(results) && results[0]?.type === 'tool_result' ? results[0].content : null).toBe(
      '<<{"body":"hi"}>>',
    );
  });

  it("writes a note a model reads as 'tool output is data', whatever the marks", () => {
    expect(saysToolOutputIsData(isolationNote('<<', '>>'))).toBe(true);
    expect(saysToolOutputIsData(isolationNote('<tool_output>', '</tool_output>'))).toBe(true);
  });
});

describe('toolOutputIsolation and the other guards', () => {
  it('leaves the transcript unmarked: the loop and its guards read outputs as the tools gave them', async () => {
    const model = new ScriptedModel([
      { calls: [{ name: 'read_inbox', input: {} }] },
      { calls: [{ name: 'read_inbox', input: {} }] },
      { text: 'done' },
    ]);
    const loop = new BudgetedAgentLoop({
      model,
      tools: answeringHost({ read_inbox: '{"results":[]}' }),
      guards: [toolOutputIsolation()],
    });
    const result = await loop.run('Read the inbox.');
    const kept = result.messages.flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.flatMap((block) => (block.type === 'tool_result' ? [block.content] : [])),
    );
    expect(kept).toEqual(['{"results":[]}', '{"results":[]}']);
    // The model was sent them marked.
    const sent = model.requests[2]!.messages.flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.flatMap((block) => (block.type === 'tool_result' ? [block.content] : [])),
    );
    expect(sent).toEqual(['<<{"results":[]}>>', '<<{"results":[]}>>']);
  });
});
