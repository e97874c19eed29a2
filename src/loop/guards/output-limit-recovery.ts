import type { Message, ModelRequest } from '../../model/model-client.js';
import { cutOffToolCall } from '../../model/output-limit.js';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard } from '../guard.js';

/** The message DESIGN.md gives for a reply cut off again after the budget was raised. */
export const RESUME_MESSAGE =
  'Resume directly — no apology, no recap of what you were doing. Pick up mid-thought. Break remaining work into smaller pieces.';

export interface OutputLimitRecoveryOptions {
  /** The output budget after the first cut-off (e.g. 8k → 64k). @default 64000 */
  readonly raisedMaxTokens?: number;
  /** Cut-offs after the raise answered with the resume message; later ones are let through. @default 3 */
  readonly maxResumes?: number;
}

/** The reply without the tool call the limit cut off: that call must never run. */
function withoutCutOffCall(reply: Message): Message {
  const cut = cutOffToolCall(reply);
  if (cut === null) return reply;
  const content = reply.content.filter((block) => block !== cut);
  // An assistant turn may not be empty; say what happened where the call was.
  if (content.length === 0)
    content.push({ type: 'text', text: `(output cut off while writing a ${cut.name} call)`, citations: null });
  return { ...reply, content };
}

/** Usage of two attempts at one turn, so the discarded one is still paid for, the prompt cache's reads and writes too. */
function addUsage(discarded: Message, kept: Message): Message {
  const a = discarded.usage;
  const b = kept.usage;
  const sum = (x: number | null | undefined, y: number | null | undefined) =>
    x == null && y == null ? null : (x ?? 0) + (y ?? 0);
  return {
    ...kept,
    usage: {
      ...b,
      input_tokens: a.input_tokens + b.input_tokens,
      output_tokens: a.output_tokens + b.output_tokens,
      cache_read_input_tokens: sum(a.cache_read_input_tokens, b.cache_read_input_tokens),
      cache_creation_input_tokens: sum(a.cache_creation_input_tokens, b.cache_creation_input_tokens),
      cache_creation:
        a.cache_creation == null && b.cache_creation == null
          ? null
          : {
              ephemeral_5m_input_tokens:
                (a.cache_creation?.ephemeral_5m_input_tokens ?? 0) + (b.cache_creation?.ephemeral_5m_input_tokens ?? 0),
              ephemeral_1h_input_tokens:
                (a.cache_creation?.ephemeral_1h_input_tokens ?? 0) + (b.cache_creation?.ephemeral_1h_input_tokens ?? 0),
            },
    },
  };
}

/**
 * Output-limit recovery. The first reply cut off by `max_tokens` is thrown away and the
 * same request sent again with the output budget raised, which then stays raised. A
 * reply cut off after that is kept without its cut-off tool call and answered with the
 * resume message, at most `maxResumes` times; after that it is let through, still
 * without the cut-off call. A tool call cut off by the limit is never run.
 *
 * @example
 * outputLimitRecovery({ raisedMaxTokens: 64_000, maxResumes: 3 })
 */
export function outputLimitRecovery({
  raisedMaxTokens = outputLimitRecoveryGuard.defaults.raisedMaxTokens,
  maxResumes = outputLimitRecoveryGuard.defaults.maxResumes,
}: OutputLimitRecoveryOptions = {}): Guard {
  let raised = false;
  let resumes = 0;
  const raise = (request: ModelRequest): ModelRequest =>
    raised && request.max_tokens < raisedMaxTokens ? { ...request, max_tokens: raisedMaxTokens } : request;
  return {
    name: 'output',
    prepareRequest: raise,
    async aroundModelCall(ctx, request, next) {
      const first = await next(request);
      if (
        raised ||
        first.kind !== 'reply' ||
        first.message.stop_reason !== 'max_tokens' ||
        request.max_tokens >= raisedMaxTokens
      )
        return first;
      raised = true;
      ctx.emit({ type: 'agent.output_limit', at: ctx.clock.now(), action: 'raise', maxTokens: raisedMaxTokens });
      const second = await next(raise(request));
      // Keeps the transcript an inner wrapper answered with (a compacted one), if any.
      return second.kind === 'reply' ? { ...second, message: addUsage(first.message, second.message) } : second;
    },
    afterModelReply(reply, ctx) {
      if (reply.stop_reason !== 'max_tokens') return undefined;
      if (resumes >= maxResumes) {
        ctx.emit({ type: 'agent.output_limit', at: ctx.clock.now(), action: 'give_up', maxTokens: raisedMaxTokens });
        const kept = withoutCutOffCall(reply);
        return kept === reply ? undefined : { kind: 'replace', reply: kept };
      }
      resumes += 1;
      ctx.emit({
        type: 'agent.output_limit',
        at: ctx.clock.now(),
        action: 'resume',
        maxTokens: raised ? raisedMaxTokens : reply.usage.output_tokens,
      });
      return { kind: 'continue', reply: withoutCutOffCall(reply), message: RESUME_MESSAGE };
    },
  };
}

/** Output-limit recovery in an arm. */
export const outputLimitRecoveryGuard = defineGuard({
  name: 'output',
  settings: z.strictObject({
    raisedMaxTokens: z.number().int().min(1).default(64_000),
    maxResumes: z.number().int().min(0).default(3),
  }),
  events: ['agent.output_limit'],
  build: (settings) => outputLimitRecovery(settings),
});
