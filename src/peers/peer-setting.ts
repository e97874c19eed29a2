import type { z } from 'zod';
import type { toolRunnerSettings } from './anthropic-tool-runner.js';
import type { langchainSettings } from './langchain.js';
import type { openaiAgentsSettings } from './openai-agents.js';
import type { vercelAiSettings } from './vercel-ai.js';

/**
 * A built-in agent's settings as results write them (`arms[].peer` in summary.json): the
 * agent's name, then its settings schema's fields. Each names the framework's own loop
 * limit and what was done about its hidden retry layers (docs/peers.md): retries that
 * would sleep on the wall clock are set to 0, and the setting says so.
 */
export type PeerSetting =
  | ({ readonly peer: 'anthropic-tool-runner' } & Readonly<z.output<typeof toolRunnerSettings>>)
  | ({ readonly peer: 'vercel-ai' } & Readonly<z.output<typeof vercelAiSettings>>)
  | ({ readonly peer: 'langchain' } & Readonly<z.output<typeof langchainSettings>>)
  | ({ readonly peer: 'openai-agents' } & Readonly<z.output<typeof openaiAgentsSettings>>);

export type PeerName = PeerSetting['peer'];
