import { z } from 'zod';
import { tryParseJson } from '../../scenarios/parse-json.js';
import type { MaybePromise } from '../../tools/maybe-promise.js';
import { type ReadBack, readBackInput } from '../../tools/read-back.js';
import { ToolError } from '../../tools/tool-error.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { defineGuard } from '../define-guard.js';
import type { ExecutionContext, Guard } from '../guard.js';

/**
 * The writes a read-back's answer counts, or null when the answer cannot be read as one (a
 * failed read among them). An answer without the count field counts none only when it says
 * it found nothing (`found: false`); any other answer without it (an empty `{}`) is no count.
 */
export function writesCounted(readBack: ReadBack, execution: ToolExecution): number | null {
  if (execution.kind !== 'ok') return null;
  const parsed = tryParseJson(execution.content);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    return null;
  const answer = parsed.value as Record<string, unknown>;
  const count = answer[readBack.count];
  if (count === undefined) return answer['found'] === false ? 0 : null;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
}

/** What a failed write's answer becomes when reading back shows it took effect. */
export function appliedAnswer(readBack: ReadBack): string {
  return JSON.stringify({
    ok: true,
    verified: `The answer to this call was lost, but reading back with ${readBack.tool} shows the write took effect. Do not repeat it.`,
  });
}

/** Reads between tries of a read-back that failed, in ms, and how many tries in all. */
const READ_RETRY_MS = 1000;
const READ_TRIES = 3;

/**
 * The writes the read-back counts, tried up to READ_TRIES times: a read is idempotent, so
 * a failed or unreadable one is simply read again after a short wait. Null when none read.
 */
function countWrites(
  ctx: ExecutionContext,
  execute: NonNullable<ExecutionContext['execute']>,
  readBack: ReadBack,
  input: Record<string, unknown>,
  tries = READ_TRIES,
): MaybePromise<number | null> {
  const counted = (read: ToolExecution): MaybePromise<number | null> => {
    const count = writesCounted(readBack, read);
    // A read refused for good (a bad argument, no such record) is not read again.
    const final = read.kind === 'error' && !read.error.retryable;
    if (count !== null || tries <= 1 || final) return count;
    ctx.clock.sleep(READ_RETRY_MS);
    return countWrites(ctx, execute, readBack, input, tries - 1);
  };
  const read = execute(readBack.tool, input);
  return read instanceof Promise ? read.then(counted) : counted(read);
}

/** Whether the read-back after the write counts one more than the one before, and what the model is told. */
function judged(ctx: ExecutionContext, readBack: ReadBack, write: ToolExecution, before: number, after: number | null) {
  // No read came back: the write's own answer stands.
  if (after === null) return write;
  const applied = after > before;
  const tool = ctx.call.name;
  const emit = (finding: 'applied' | 'not_applied' | 'not_visible') =>
    ctx.emit({ type: 'agent.write.verified', at: ctx.clock.now(), tool, readBack: readBack.tool, finding });
  if (write.kind === 'ok') {
    if (applied) {
      if (tryParseJson(write.content).ok) return write;
      // A success whose answer came back garbled is still a success: say so in words that parse.
      emit('applied');
      return { ...write, content: appliedAnswer(readBack) };
    }
    emit('not_visible');
    const error = new ToolError(
      'server_error',
      `${tool} answered that it succeeded, but reading back with ${readBack.tool} does not show the write: it was not applied`,
      { applied: false },
    );
    return { kind: 'error', error, latencyMs: write.latencyMs, fault: write.fault } satisfies ToolExecution;
  }
  if (applied) {
    emit('applied');
    return {
      kind: 'ok',
      content: appliedAnswer(readBack),
      latencyMs: write.latencyMs,
      fault: write.fault,
    } satisfies ToolExecution;
  }
  emit('not_applied');
  const { error } = write;
  const checked = new ToolError(
    error.code,
    `${error.message} (reading back with ${readBack.tool} shows it was not applied)`,
    {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      applied: false,
    },
  );
  return { ...write, error: checked };
}

/**
 * Write verification (read-your-writes): a write whose tool declares a `readBack` is
 * bracketed by reads of it, one before and one after, each an execution of the read tool
 * with its own faults and time (a failed read is tried again, up to three times in all, a
 * second apart: reads are idempotent). The count of writes must go up by one:
 * - a write that failed but took effect (an answer lost after the email left) comes back
 *   as done, so the model does not send it again; so does one whose answer came back garbled;
 * - a write that failed and did not take effect says so, and is worded as safe to retry;
 * - a write that answered success but does not show is a failure, not applied.
 * When the reads fail (or answer without a count), the write's own answer stands. Writes
 * of tools without a read-back, whose read tool the scenario lacks, or whose read-back names
 * a side-effecting tool, are left alone. A read-back from a replica that
 * lags would report a write missing that happened: the cost of trusting it, which the
 * bundled worlds (read-backs from the primary) do not meet.
 *
 * @example
 * writeVerification()
 */
export function writeVerification(): Guard {
  return {
    name: 'verify',
    aroundExecution(ctx, next) {
      const { readBack, sideEffecting } = ctx.traits;
      const { execute } = ctx;
      // Only a read can verify a write: a read-back that names a write (or the tool itself) would repeat it.
      const reads = readBack === undefined ? undefined : ctx.toolTraits(readBack.tool);
      if (
        !sideEffecting ||
        readBack === undefined ||
        execute === undefined ||
        reads === undefined ||
        reads.sideEffecting
      )
        return next();
      const input = readBackInput(readBack, ctx.call.input);
      const afterRead = (before: number | null): MaybePromise<ToolExecution> => {
        const write = next();
        if (before === null) return write;
        const check = (done: ToolExecution): MaybePromise<ToolExecution> => {
          const after = countWrites(ctx, execute, readBack, input);
          return after instanceof Promise
            ? after.then((count) => judged(ctx, readBack, done, before, count))
            : judged(ctx, readBack, done, before, after);
        };
        return write instanceof Promise ? write.then(check) : check(write);
      };
      const before = countWrites(ctx, execute, readBack, input);
      return before instanceof Promise ? before.then(afterRead) : afterRead(before);
    },
  };
}

/** Write verification in an arm. */
export const writeVerificationGuard = defineGuard({
  name: 'verify',
  settings: z.strictObject({}),
  events: ['agent.write.verified'],
  build: () => writeVerification(),
});
