import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import { sessionTrust } from './session-trust.js';
import { answeringHost } from './trust-guards.test-helpers.js';

async function send(to: string, trigger: 'user' | 'untrusted', task = 'Reply to ann@example.com about her order.') {
  const tools = answeringHost({ send_email: '{"ok":true}', read_inbox: '{}' });
  const events: AgentEvent[] = [];
  const model = new ScriptedModel([
    { calls: [{ name: 'read_inbox', input: {} }] },
    { calls: [{ name: 'send_email', input: { to, subject: 'Re: order', body: 'On its way.' } }] },
    { text: 'done' },
  ]);
  await new BudgetedAgentLoop({
    model,
    tools,
    guards: [sessionTrust({ trigger })],
    onEvent: (e) => events.push(e),
  }).run(task);
  return { executed: tools.executed, refused: events.filter((event) => event.type === 'agent.trust.refused') };
}

describe('sessionTrust', () => {
  it('in an untrusted session, refuses a side effect on a target the operator did not name', async () => {
    const { executed, refused } = await send('x@attacker.example', 'untrusted');
    expect(executed).toEqual(['read_inbox']);
    expect(refused).toMatchObject([{ tool: 'send_email', target: 'x@attacker.example' }]);
  });

  it('lets a side effect on a target the operator named through, and reads through', async () => {
    expect(await send('ann@example.com', 'untrusted')).toEqual({ executed: ['read_inbox', 'send_email'], refused: [] });
  });

  it('in a session its user started, lets everything through', async () => {
    expect((await send('x@attacker.example', 'user')).executed).toEqual(['read_inbox', 'send_email']);
  });
});

describe('sessionTrust reads targets as whole tokens', () => {
  const refused = async (to: string) => (await send(to, 'untrusted')).refused.length > 0;
  it('refuses a foreign address however it is dressed, and a prefix of a named one', async () => {
    for (const to of [
      'Archive <x@attacker.example>',
      'x@attacker.example ',
      'ann@example.com, x@attacker.example',
      'ann@example.co',
    ])
      expect(await refused(to), to).toBe(true);
    expect(await refused('Ann <ann@example.com>')).toBe(false);
    // A date or an order number in a sentence is not a target; a value that is one identifier is.
    expect((await send('ann@example.com', 'untrusted', 'Reply to ann@example.com.')).refused).toEqual([]);
    expect(await refused('ANN@example.com')).toBe(false);
  });
});
