/**
 * spiralbench's safeguards as drop-in middleware for the Vercel AI SDK (`generateText`):
 * `import { aiSdkGuards } from 'spiralbench/ai-sdk'`. docs/ai-sdk-middleware.md shows the
 * whole agent; docs/middleware.md maps each safeguard to its extension point.
 */
export { agentResultOf } from '../agents/agent-result.js';
export {
  AiSdkGuards,
  type AiSdkGuardsOptions,
  aiSdkGuards,
  GuardStopped,
  type StepPlan,
  StreamingRefused,
} from './ai-sdk-guards.js';
export {
  createGuardSession,
  type GuardChoice,
  GuardSession,
  type GuardSessionOptions,
  modelErrorOf,
  SESSION_PRESETS,
  type SessionClock,
  type SessionPreset,
  toolErrorOf,
  toolExecutionOf,
  toolResultText,
  UNHOSTED_GUARDS,
  wallClock,
} from '../middleware/index.js';
