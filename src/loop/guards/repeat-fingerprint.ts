import { createHash } from 'node:crypto';
import { canonicalJson } from '../../scenarios/world.js';
import type { Guard } from '../guard.js';

export interface RepeatFingerprintOptions {
  /** How many of the most recent calls a new call is compared with. @default 2 */
  readonly window?: number;
}

export const REFLECTION_MESSAGE =
  'You just called the same tool with identical arguments. The result will be the same. Stop, reflect on why this is not working, and choose a different approach: different arguments, a different tool, or signal that you are stuck.';

/** sha256 of the canonical JSON of `{name, input}`: key order does not matter. */
export function callFingerprint(name: string, input: unknown): string {
  return createHash('sha256').update(canonicalJson({ name, input })).digest('hex');
}

/**
 * Refuses to execute a call identical to one of the last `window` calls and answers it
 * with a reflection message instead.
 *
 * @example
 * repeatFingerprint({ window: 2 })
 */
export function repeatFingerprint({ window = 2 }: RepeatFingerprintOptions = {}): Guard {
  const recent: string[] = [];
  return {
    name: 'repeat',
    beforeToolCall(call, ctx) {
      const fingerprint = callFingerprint(call.name, call.input);
      const repeated = recent.includes(fingerprint);
      recent.push(fingerprint);
      if (recent.length > window) recent.shift();
      if (!repeated) return undefined;
      ctx.emit({ type: 'agent.repeat.blocked', at: ctx.clock.now(), tool: call.name, fingerprint });
      return { kind: 'answer', content: REFLECTION_MESSAGE, isError: true };
    },
  };
}
