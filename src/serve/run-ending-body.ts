import { z } from 'zod';
import type { AgentReturn } from '../agents/agent-result.js';
import { redactSecrets } from '../model/secret-redaction.js';
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
 * with a 400 naming the field and what it takes. Each of `secrets` (serve's own keys) is
 * replaced wherever the agent put it (its text, reason or escalation), before the record keeps it.
 *
 * @example
 * runEnding('{"outcome":"completed","final_text":"done"}') // { outcome: 'completed', finalText: 'done' }
 */
export function runEnding(text: string, secrets: readonly string[] = []): AgentReturn {
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
  const body = redacted(parsed.data, secrets);
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

function redacted(body: RunEndingBody, secrets: readonly string[]): RunEndingBody {
  if (secrets.length === 0) return body;
  return JSON.parse(redactSecrets(JSON.stringify(body), secrets)) as RunEndingBody;
}
