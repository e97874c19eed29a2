/**
 * The framework-neutral core of the drop-in middleware: our built-in guards hosted at a
 * framework's extension points. The AI SDK (`spiralbench/ai-sdk`) and LangChain
 * (`spiralbench/langchain`) adapters are built on it; docs/middleware.md maps each hook.
 */
export {
  createGuardSession,
  GuardSession,
  type GuardSessionOptions,
  type ModelCallOutcome,
  type ReadReply,
  type ToolCallAnswer,
  type ToolCallInput,
  type TurnPlan,
} from './guard-session.js';
export {
  buildHostedGuards,
  type GuardChoice,
  HOSTED_GUARDS,
  type HostedGuardOption,
  type HostedRun,
  SESSION_PRESETS,
  type SessionPreset,
  UNHOSTED_GUARDS,
} from './hosted-guards.js';
export { modelErrorOf } from './model-error-of.js';
export type { SessionClock } from './session-clock.js';
export { toolErrorOf } from './tool-error-of.js';
export { toolResultText } from './tool-result-text.js';
export { toolExecutionOf } from './tool-execution-of.js';
export { wallClock } from './wall-clock.js';
