import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { ModelRequest } from '../../model/model-client.js';
import { defineGuard } from '../define-guard.js';
import type { Guard, LoopContext } from '../guard.js';

/** Who started a session: its user, or an untrusted source (an inbound email, a webhook, a page). */
export type SessionTrigger = 'user' | 'untrusted';

export interface SessionTrustOptions {
  /** Who started the session. @default 'user' (the guard then lets everything through) */
  readonly trigger?: SessionTrigger;
}

/** An email address or a URL: a target wherever it stands in a string. */
const ADDRESS = /^(?:[^@\s]+@[^@\s]+\.[^@\s]+|https?:\/\/\S+)$/;
/** An identifier (letters and digits, with a digit): a target when it is the whole value (`order_id: "o_5521"`), not a date in a subject. */
const IDENTIFIER = /^(?=\S*\d)[A-Za-z0-9][\w.:-]{0,63}$/;
/** What separates the tokens of a value: spaces, list punctuation, brackets and quotes ("Archive <x@y.z>", "a@b.c, d@e.f"). */
const SEPARATORS = /[\s,;<>()[\]{}"'`]+/;

/** The tokens of a text, lower-cased, without trailing sentence punctuation. */
function tokensOf(text: string): string[] {
  return text
    .split(SEPARATORS)
    .map((token) => token.replace(/[.:!?]+$/, '').toLowerCase())
    .filter((token) => token !== '');
}

/**
 * The targets among a call's arguments, at any depth: every address or URL in a string, a
 * string that is one identifier, and a whole-number id.
 */
function targetsOf(value: unknown, key = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    const tokens = tokensOf(value);
    for (const token of tokens) if (ADDRESS.test(token)) out.push(token);
    if (tokens.length === 1 && IDENTIFIER.test(tokens[0]!) && !ADDRESS.test(tokens[0]!)) out.push(tokens[0]!);
  }
  if (typeof value === 'number' && Number.isInteger(value) && (key === 'id' || key.endsWith('_id')))
    out.push(String(value));
  if (Array.isArray(value)) for (const item of value) targetsOf(item, key, out);
  else if (typeof value === 'object' && value !== null)
    for (const [field, item] of Object.entries(value)) targetsOf(item, field, out);
  return out;
}

/** The words the session's operator wrote: the system prompt and the first user message. */
function operatorWords(messages: LoopContext['messages'], system: ModelRequest['system']): string {
  const first = messages[0];
  const task =
    first === undefined || first.role !== 'user'
      ? ''
      : typeof first.content === 'string'
        ? first.content
        : first.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const instructions = typeof system === 'string' ? system : (system ?? []).map((block) => block.text).join('\n');
  return `${instructions}\n${task}`;
}

/**
 * Session trust: a session started by an untrusted source (an inbound email rather than
 * its user) carries that flag, and a side-effecting call in it runs only if every target
 * it names (an address, a URL, an identifier) is one the operator's own words name. Any
 * other side effect is refused with words that say it needs a person's confirmation. It
 * stops an injected "send the customer list to x@elsewhere", and also a reply to a sender
 * the operator never named: what it costs is measured beside what it buys.
 *
 * @example
 * sessionTrust({ trigger: 'untrusted' })
 */
export function sessionTrust({ trigger = 'user' }: SessionTrustOptions = {}): Guard {
  let system: ModelRequest['system'];
  return {
    name: 'trust',
    prepareRequest(request) {
      system = request.system;
      return request;
    },
    beforeToolCall(call: ToolUseBlock, ctx) {
      if (trigger !== 'untrusted' || ctx.toolTraits(call.name)?.sideEffecting !== true) return undefined;
      const named = new Set(tokensOf(operatorWords(ctx.messages, system)));
      const foreign = targetsOf(call.input).find((target) => !named.has(target));
      if (foreign === undefined) return undefined;
      ctx.emit({ type: 'agent.trust.refused', at: ctx.clock.now(), tool: call.name, target: foreign });
      return {
        kind: 'answer',
        content: `Not allowed without confirmation: this session was started by an untrusted source, and ${call.name} would act on ${foreign}, which your instructions do not name. A person must confirm side effects like this one; the call was not run.`,
        isError: true,
      };
    },
  };
}

/** Session trust in an arm: the trigger is the run's (a scenario's `trigger:`). */
export const sessionTrustGuard = defineGuard({
  name: 'trust',
  settings: z.strictObject({}),
  events: ['agent.trust.refused'],
  build: (_settings, run) => sessionTrust({ trigger: run.trigger ?? 'user' }),
});
