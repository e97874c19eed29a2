import type { AgentReturn } from '../agents/agent-result.js';

/**
 * Why a served run failed, as its record keeps it (`failure_reason.error_class`):
 * - `AgentReportedFailure`: the agent ended the run with outcome `failed` and its reason;
 * - `AgentWentSilent`: no request for the run within --idle-timeout (the agent crashed or forgot the run);
 * - `ServeStopped`: serve was stopped (Ctrl-C, SIGTERM) with the run in flight.
 * The agent's process is out of reach, so its own error cannot be kept; this is the next best.
 */
export type ServedFailureKind = 'AgentReportedFailure' | 'AgentWentSilent' | 'ServeStopped';

/**
 * A failed ending whose reason the record keeps.
 *
 * @example
 * sweep.end(id, { returned: servedFailure('AgentWentSilent', 'no request for 300 s') });
 */
export function servedFailure(kind: ServedFailureKind, reason: string): AgentReturn {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new Error(reason);
  Error.stackTraceLimit = limit;
  error.name = kind;
  return { outcome: 'failed', reason, error };
}
