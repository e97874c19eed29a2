import { z } from 'zod';
import type { AgentReturn } from '../agents/agent-result.js';
import { servedFailure } from './served-failure.js';
import { ServeRefusal } from './serve-refusal.js';

/** `POST /runs/<id>/end`'s body: the agent's account of how its loop ended (the verdict is judged on the world). */
const endingSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('completed'), final_text: z.string().optional() }),
  z.strictObject({ outcome: z.literal('escalated'), escalation: z.unknown().optional() }),
  z.strictObject({ outcome: z.literal('failed'), reason: z.string().min(1) }),
  z.strictObject({ outcome: z.literal('max_iterations'), iterations: z.number().int().nonnegative().optional() }),
]);

export type RunEndingBody = z.output<typeof endingSchema>;

/** What each field of an ending takes, in the words of a refusal. */
const EXPECTED: Readonly<Record<string, string>> = {
  outcome: "one of 'completed', 'escalated', 'failed', 'max_iterations'",
  final_text: "a string (the agent's final answer)",
  reason: 'a non-empty string saying why the agent failed',
  iterations: 'a whole number of at least 0',
};

/**
 * The ending an agent sent, as the run's return value; a body that is not one is refused
 * with a 400 naming the field and what it takes. A key the agent put in it is scrubbed where
 * every record is, on its way to a file or the terminal (secrets/process-secrets.ts).
 *
 * @example
 * runEnding('{"outcome":"completed","final_text":"done"}') // { outcome: 'completed', finalText: 'done' }
 */
export function runEnding(text: string): AgentReturn {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ServeRefusal(
      400,
      'invalid_request_error',
      'the body is not JSON; send {"outcome":"completed","final_text":"..."}',
    );
  }
  const parsed = endingSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys')
      throw new ServeRefusal(
        400,
        'invalid_request_error',
        `${issue.keys[0]}: not a field of this ending; it takes outcome, and final_text (completed), escalation (escalated), reason (failed) or iterations (max_iterations)`,
      );
    const field = issue.path.join('.') || 'outcome';
    const given = issue.path.length === 1 ? (json as Record<string, unknown>)[String(issue.path[0])] : undefined;
    throw new ServeRefusal(
      400,
      'invalid_request_error',
      `${field}: expected ${EXPECTED[field] ?? issue.message}${given === undefined ? '' : `, got ${JSON.stringify(given)}`}`,
    );
  }
  const body = parsed.data;
  switch (body.outcome) {
    case 'completed':
      return { outcome: 'completed', finalText: body.final_text ?? '' };
    case 'escalated':
      return { outcome: 'escalated', payload: body.escalation ?? null };
    case 'failed':
      return servedFailure('AgentReportedFailure', body.reason);
    case 'max_iterations':
      return body.iterations === undefined
        ? { outcome: 'max_iterations' }
        : { outcome: 'max_iterations', iterations: body.iterations };
  }
}
