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
