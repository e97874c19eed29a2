import { describe, expect, it } from 'vitest';
import { resolveArms } from '../arms/arms.js';
import { UserInputError } from '../user-input-error.js';
import { installCommand, installedPeers, packageInstalled, PEERS } from './peer-registry.js';

describe('peer registry', () => {
  it('peer arms resolve by name with their settings, beside our arms', () => {
    const arms = resolveArms(['none', 'peer:vercel-ai', 'peer:langchain']);
    expect(arms.map((arm) => arm.name)).toEqual(['none', 'peer:vercel-ai', 'peer:langchain']);
    expect(arms[1]).toEqual({
      name: 'peer:vercel-ai',
      guards: [],
      peer: { peer: 'vercel-ai', maxSteps: 25, maxRetries: 0 },
    });
    expect(arms[0]!.peer).toBeUndefined();
  });

  it('an unavailable peer is a user error that names the missing packages and the exact npm command', () => {
    const withoutAi = (name: string) => name !== 'ai' && name !== '@ai-sdk/anthropic';
    let error: unknown;
    try {
      resolveArms(['none', 'peer:vercel-ai'], '--arms', new Map(), withoutAi);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UserInputError);
    expect((error as Error).message).toBe(
      "--arms: arm 'peer:vercel-ai' needs ai, @ai-sdk/anthropic, which is not installed; add it with: npm install 'ai@^6.0.326' '@ai-sdk/anthropic@^3.0.139'",
    );
    expect(installedPeers(withoutAi).map((peer) => peer.arm)).toEqual([
      'peer:anthropic-tool-runner',
      'peer:langchain',
      'peer:langchain+article',
      'peer:langchain+all',
      'peer:openai-agents',
    ]);
  });

  it('a framework with our middleware is its own arm: the same agent, the preset and the ceiling-keeping limit in its settings', () => {
    const [bare, guarded] = resolveArms(['peer:langchain', 'peer:langchain+article']);
    expect(bare!.peer).not.toHaveProperty('guards');
    expect(guarded).toEqual({
      name: 'peer:langchain+article',
      guards: [],
      peer: { ...bare!.peer, recursionLimit: 26, guards: 'article' },
    });
    expect(PEERS.find((peer) => peer.arm === 'peer:langchain+all')!.agent).toBe(
      PEERS.find((peer) => peer.arm === 'peer:langchain')!.agent,
    );
  });

  it('the npm command asks only for what is missing, at the ranges package.json names', async () => {
    const langchain = PEERS.find((peer) => peer.name === 'langchain')!;
    expect(installCommand(langchain, (name) => name === '@langchain/core')).toBe(
      "npm install 'langchain@^1.5.14' '@langchain/anthropic@^1.5.11'",
    );
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    for (const peer of PEERS)
      for (const { name, range } of peer.packages) {
        if (pkg.dependencies[name] !== undefined) {
          expect(pkg.dependencies[name], name).toBe(range);
          continue;
        }
        // Optional for users (never downloaded with spiralbench), installed for development.
        expect(pkg.peerDependencies[name], name).toBe(range);
        expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
        expect(pkg.devDependencies[name], name).toBe(range);
      }
  });

  it('finds installed packages in node_modules up the tree, and not made-up ones', () => {
    expect(packageInstalled('@anthropic-ai/sdk')).toBe(true);
    expect(packageInstalled('no-such-package-spiralbench')).toBe(false);
  });
});
