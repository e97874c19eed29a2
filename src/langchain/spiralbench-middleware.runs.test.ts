import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { Command, interrupt } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { spiralbenchMiddleware } from './spiralbench-middleware.js';
import { answeringChat, call, type SeenRequest, say } from './scripted-anthropic.test-helpers.js';

const schema = { type: 'object' as const, properties: { id: { type: 'string' as const } }, required: ['id'] };

/** The first user message's text: each invocation's own name. */
function promptOf(request: SeenRequest): string {
  const first = request.messages[0]!.content;
  return typeof first === 'string' ? first : (first as Array<{ text?: string }>).map((b) => b.text ?? '').join('');
}

const assistantTurns = (request: SeenRequest) => request.messages.filter((m) => m.role === 'assistant').length;

describe('spiralbenchMiddleware, one session per invocation', () => {
  it('keeps a run’s guards while many other runs of the same agent end at the recursion limit', async () => {
    // "held" calls get_user twice against a budget of 1; every other run calls tools until LangGraph stops it.
    const { model } = answeringChat((request) => {
      const n = assistantTurns(request);
      if (promptOf(request) !== 'held') return call('get_user', { id: `x${n}` }, `t${n}`);
      return n < 2 ? call('get_user', { id: `h${n}` }, `h${n}`) : say('done');
    });
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const executed: string[] = [];
    const getUser = tool(
      async (input: unknown) => {
        const { id } = input as { id: string };
        executed.push(id);
        if (id === 'h0') await gate;
        return JSON.stringify({ id });
      },
      { name: 'get_user', description: 'Fetch a user', schema },
    );
    const agent = createAgent({
      model,
      tools: [getUser],
      middleware: [spiralbenchMiddleware({ guards: { toolBudget: { maxToolCalls: 1 } } })],
    });
    const held = agent.invoke({ messages: [{ role: 'user', content: 'held' }] });
    while (!executed.includes('h0')) await new Promise((resolve) => setImmediate(resolve));
    const others = Array.from({ length: 300 }, (_, i) =>
      agent.invoke({ messages: [{ role: 'user', content: `other ${i}` }] }, { recursionLimit: 3 }).then(
        () => 'ended',
        (error: Error) => error.name,
      ),
    );
    expect(new Set(await Promise.all(others))).toEqual(new Set(['GraphRecursionError']));
    release();
    const state = (await held) as { spiralbench?: { kind: string } };
    expect(executed.filter((id) => id.startsWith('h'))).toEqual(['h0']);
    expect(state.spiralbench).toMatchObject({ kind: 'budget_exhausted' });
  });

  it('keeps the session across an interrupt and its resume on a checkpointed thread', async () => {
    const { model } = answeringChat((request) => {
      const n = assistantTurns(request);
      return n < 2 ? call('get_user', { id: `u${n}` }, `t${n}`) : say('done');
    });
    const executed: string[] = [];
    const getUser = tool(
      async (input: unknown) => {
        const { id } = input as { id: string };
        if (id === 'u0' && interrupt({ approve: id }) !== 'yes') return 'declined';
        executed.push(id);
        return JSON.stringify({ id });
      },
      { name: 'get_user', description: 'Fetch a user', schema },
    );
    const agent = createAgent({
      model,
      tools: [getUser],
      checkpointer: new MemorySaver(),
      // The interrupted call and its resumed run both count: 2 leaves none for u1.
      middleware: [spiralbenchMiddleware({ guards: { toolBudget: { maxToolCalls: 2 } } })],
    });
    const config = { configurable: { thread_id: 'thread-1' } };
    await agent.invoke({ messages: [{ role: 'user', content: 'go' }] }, config);
    const state = (await agent.invoke(new Command({ resume: 'yes' }) as never, config)) as {
      spiralbench?: { kind: string };
    };
    // The session before the interrupt is the one after it: its budget answered u1 without running it.
    expect(executed).toEqual(['u0']);
    expect(state.spiralbench).toMatchObject({ kind: 'budget_exhausted' });
  });

  it('throws rather than call the model unguarded when the state names no run of its own', async () => {
    const middleware = spiralbenchMiddleware({ guards: 'article' }) as unknown as {
      wrapModelCall(request: unknown, handler: () => Promise<unknown>): Promise<unknown>;
    };
    let called = false;
    const handler = async () => {
      called = true;
      return null;
    };
    await expect(middleware.wrapModelCall({ state: {}, messages: [], tools: [] }, handler)).rejects.toThrow(
      /spiralbench: wrapModelCall found no guard session for this run/,
    );
    expect(called).toBe(false);
  });
});
