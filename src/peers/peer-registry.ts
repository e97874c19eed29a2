import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDefinition } from '../agents/define-agent.js';
import anthropicToolRunner from './anthropic-tool-runner.js';
import langchain from './langchain.js';
import openaiAgents from './openai-agents.js';
import vercelAi from './vercel-ai.js';
import type { PeerName, PeerSetting } from './peer-setting.js';

/** One built-in agent: a peer framework's loop, written with `defineAgent` as a user's agent is. */
export interface PeerEntry {
  readonly name: PeerName;
  /** What `--arms` calls it: `peer:<name>`, or `peer:<name>+<variant>` for the framework with settings of its own (our middleware). */
  readonly arm: `peer:${PeerName}` | `peer:${PeerName}+${string}`;
  readonly title: string;
  /** npm packages with the version ranges that run on Node 20 (package.json lists them as optional peer dependencies). */
  readonly packages: ReadonlyArray<{ readonly name: string; readonly range: string }>;
  /** Its settings with their defaults, as results write them (the agent's schema parsing `{}`). */
  readonly defaults: PeerSetting;
  /** Whether it can replay a scenario history with tool blocks in it (only the Anthropic shapes can, as given). */
  readonly toolHistory: boolean;
  /** The API it speaks: a scenario's reply faults (malformed arguments) live on its own API's edge only. */
  readonly api: 'anthropic' | 'openai-chat';
  /** The agent itself; it loads its framework only when it runs. */
  readonly agent: AgentDefinition;
}

/**
 * A catalogue entry from the agent itself: its name, API and default settings come from its
 * definition. A `variant` is the same agent under `peer:<name>+<variant>` with some settings
 * of its own (the rest its defaults).
 */
function builtIn(
  agent: AgentDefinition,
  about: Pick<PeerEntry, 'title' | 'packages' | 'toolHistory'>,
  variant?: { readonly suffix: string; readonly settings: Readonly<Record<string, unknown>> },
): PeerEntry {
  const name = agent.name as PeerName;
  return {
    name,
    arm: variant === undefined ? `peer:${name}` : `peer:${name}+${variant.suffix}`,
    ...about,
    defaults: { peer: name, ...agent.settings.parse(variant?.settings ?? {}) } as PeerSetting,
    api: agent.api,
    agent,
  };
}

const LANGCHAIN: Pick<PeerEntry, 'title' | 'packages' | 'toolHistory'> = {
  title: 'LangChain createAgent (LangGraph) + @langchain/anthropic',
  packages: [
    { name: 'langchain', range: '^1.5.14' },
    { name: '@langchain/core', range: '^1.4.0' },
    { name: '@langchain/anthropic', range: '^1.5.11' },
  ],
  toolHistory: false,
};

const VERCEL_AI = {
  title: 'Vercel AI SDK generateText + @ai-sdk/anthropic',
  packages: [
    { name: 'ai', range: '^6.0.326' },
    { name: '@ai-sdk/anthropic', range: '^3.0.139' },
  ],
  toolHistory: false,
} as const;

/**
 * The peer frameworks, in the order arena runs them. Loop limits are each framework's own
 * default where it has one (LangGraph's recursionLimit 25, the Agents SDK's maxTurns 10);
 * where it has none (the tool runner) or its default is no loop at all (generateText's one
 * step), 25 model calls. Client retries are 0: see docs/peers.md.
 */
export const PEERS: readonly PeerEntry[] = [
  builtIn(anthropicToolRunner, {
    title: 'Anthropic SDK client.beta.messages.toolRunner',
    packages: [{ name: '@anthropic-ai/sdk', range: '^1.12.0' }],
    toolHistory: true,
  }),
  builtIn(vercelAi, VERCEL_AI),
  builtIn(
    vercelAi,
    { ...VERCEL_AI, title: `${VERCEL_AI.title}, spiralbench/ai-sdk article guards` },
    { suffix: 'article', settings: { guards: 'article' } },
  ),
  builtIn(
    vercelAi,
    { ...VERCEL_AI, title: `${VERCEL_AI.title}, spiralbench/ai-sdk all hostable guards` },
    { suffix: 'all', settings: { guards: 'all' } },
  ),
  builtIn(langchain, LANGCHAIN),
  // Our guards as its middleware. Its beforeAgent hook is a graph super-step of its own, and
  // so is afterAgent, which LangGraph still counts after a last reply: 26 gives exactly the
  // bare arm's ceiling of 13 model calls and 12 tool batches (src/peers/langchain-ceiling.test.ts).
  builtIn(
    langchain,
    { ...LANGCHAIN, title: `${LANGCHAIN.title} + spiralbench/langchain (article)` },
    { suffix: 'article', settings: { guards: 'article', recursionLimit: 26 } },
  ),
  builtIn(
    langchain,
    { ...LANGCHAIN, title: `${LANGCHAIN.title} + spiralbench/langchain (all)` },
    { suffix: 'all', settings: { guards: 'all', recursionLimit: 26 } },
  ),
  builtIn(openaiAgents, {
    title: 'OpenAI Agents SDK run() over Chat Completions',
    packages: [
      { name: '@openai/agents', range: '^0.14.3' },
      { name: 'openai', range: '^6.49.0' },
    ],
    toolHistory: false,
  }),
];

export function peerByArm(arm: string): PeerEntry | undefined {
  return PEERS.find((peer) => peer.arm === arm);
}

/** Whether a package is installed where Node would find it from here (any node_modules up the tree). */
export function packageInstalled(name: string, from = dirname(fileURLToPath(import.meta.url))): boolean {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The packages of a peer that are not installed. */
export function missingPackages(peer: PeerEntry, installed: (name: string) => boolean = packageInstalled): string[] {
  return peer.packages.filter((pkg) => !installed(pkg.name)).map((pkg) => pkg.name);
}

/** The exact command that adds a peer's missing packages. */
export function installCommand(peer: PeerEntry, installed: (name: string) => boolean = packageInstalled): string {
  const missing = peer.packages.filter((pkg) => !installed(pkg.name));
  return `npm install ${missing.map((pkg) => `'${pkg.name}@${pkg.range}'`).join(' ')}`;
}

/** The peers whose packages are all installed, in arena order. */
export function installedPeers(installed: (name: string) => boolean = packageInstalled): PeerEntry[] {
  return PEERS.filter((peer) => missingPackages(peer, installed).length === 0);
}
