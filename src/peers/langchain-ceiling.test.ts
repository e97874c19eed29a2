import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { call, say, scriptedChat } from '../langchain/scripted-anthropic.test-helpers.js';
import { spiralbenchMiddleware } from '../langchain/spiralbench-middleware.js';
import { peerByArm } from './peer-registry.js';

const schema = { type: 'object' as const, properties: { id: { type: 'string' as const } }, required: ['id'] };

/** How far LangGraph lets a run go whose model calls a tool `calls` times before answering. */
async function ceiling(arm: string, calls: number) {
  const defaults = peerByArm(arm)!.defaults as { recursionLimit: number; guards?: 'article' | 'all' };
  const script = Array.from({ length: 40 }, (_, i) =>
    i === calls ? say('done') : call('get_user', { id: `u${i}` }, `t${i}`),
  );
  const { model, requests } = scriptedChat(script);
  let executions = 0;
  const getUser = tool(
    async () => {
      executions++;
      return '{"ok":true}';
    },
    { name: 'get_user', description: 'Fetch a user', schema },
  );
  // Guards that answer no call of this script: only the graph's own ceiling is measured.
  const guards = spiralbenchMiddleware({ guards: { repeatFingerprint: true } });
  const agent = createAgent({
    model,
    tools: [getUser],
    middleware: defaults.guards === undefined ? [] : [guards],
  });
  const ended = await agent
    .invoke({ messages: [{ role: 'user', content: 'go' }] }, { recursionLimit: defaults.recursionLimit })
    .then(
      () => 'completed',
      (error: Error) => error.name,
    );
  return { ended, modelCalls: requests.length, executions };
}

describe('the LangChain arms’ ceiling', () => {
  it('lets the guarded arms make exactly the bare arm’s model calls and tool batches, however long the run', async () => {
    for (const calls of [11, 12, 13, 20]) {
      const bare = await ceiling('peer:langchain', calls);
      expect(await ceiling('peer:langchain+article', calls)).toEqual(bare);
      expect(await ceiling('peer:langchain+all', calls)).toEqual(bare);
    }
    expect(await ceiling('peer:langchain', 20)).toEqual({
      ended: 'GraphRecursionError',
      modelCalls: 13,
      executions: 12,
    });
    expect(await ceiling('peer:langchain', 11)).toEqual({ ended: 'completed', modelCalls: 12, executions: 11 });
  });
});
