import { z } from 'zod';
import { tryParseJson } from '../../scenarios/parse-json.js';
import type { MaybePromise } from '../../tools/maybe-promise.js';
import { answersForAnother, contractProblem } from '../../tools/output-contract.js';
import { ToolError } from '../../tools/tool-error.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { defineGuard } from '../define-guard.js';
import type { ExecutionContext, Guard } from '../guard.js';

/** What the model is told of an answer that breaks its tool's contract. */
export function contractMessage(tool: string, problem: string): string {
  return `The ${tool} answer does not match what the tool declares (${problem}). It may be a wrong, stale or changed record: do not act on it. May succeed if retried.`;
}

/** Why an answer breaks the contract of the call it answers, or null. */
function breach(ctx: ExecutionContext, content: string): string | null {
  const parsed = tryParseJson(content);
  // A body that does not parse is the transport's fault, not a contract's: others handle it.
  if (!parsed.ok) return null;
  const schema = ctx.traits.outputSchema;
  const problem = schema === undefined ? null : contractProblem(schema, parsed.value);
  if (problem !== null) return problem;
  const other = answersForAnother(ctx.call.input as Record<string, unknown>, parsed.value);
  return other === null ? null : `it is for ${other.got}, the call asked for ${other.asked}`;
}

/**
 * Output contracts: each successful answer is held to what its tool declares (its
 * `outputSchema`: a field missing, renamed or retyped) and to the call it answers (a
 * record of another entity than the identifier the call named). An answer that breaks
 * either comes back as a failed call, worded as the classification guard words a
 * transient failure, so the executor's automatic retries (with `classify`) or the model
 * fetch it again instead of acting on it. A stale value or a page cut short breaks no
 * contract: it is not caught.
 *
 * @example
 * outputContracts()
 */
export function outputContracts(): Guard {
  return {
    name: 'contracts',
    aroundExecution(ctx, next) {
      const hold = (execution: ToolExecution): ToolExecution => {
        // A write's answer is never failed after the fact: its side effect has happened, and a retry would repeat it.
        if (execution.kind !== 'ok' || ctx.traits.sideEffecting) return execution;
        const problem = breach(ctx, execution.content);
        if (problem === null) return execution;
        ctx.emit({ type: 'agent.contract.broken', at: ctx.clock.now(), tool: ctx.call.name, problem });
        const error = new ToolError('malformed_response', contractMessage(ctx.call.name, problem));
        return { kind: 'error', error, latencyMs: execution.latencyMs, fault: execution.fault };
      };
      const execution: MaybePromise<ToolExecution> = next();
      return execution instanceof Promise ? execution.then(hold) : hold(execution);
    },
  };
}

/** Output contracts in an arm. */
export const outputContractsGuard = defineGuard({
  name: 'contracts',
  settings: z.strictObject({}),
  events: ['agent.contract.broken'],
  build: () => outputContracts(),
});
