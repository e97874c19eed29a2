import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelFaultResponse } from '../../faults/model-faults.js';
import type { ModelRequest } from '../model-client.js';
import { memoByToolList } from '../tool-list-memo.js';
import { extendsPrefix, TranscriptReadings } from '../transcript-prefix.js';
import { appended } from './appended.js';

const blocksOf = (message: MessageParam): readonly ContentBlockParam[] => {
  if (typeof message.content === 'string')
    return message.content === '' ? [] : [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content : [];
};

/** The empty id list, shared: the lists are replaced, never changed in place (and this one cannot be). */
const NO_IDS: readonly string[] = Object.freeze([]);

/**
 * Where the pairing check stands after some messages. The API combines consecutive
 * messages of one role into one turn, so tool calls and results are paired turn by turn.
 */
class Pairing {
  /**
   * tool_use ids of the last assistant turn, and the index where that turn began; then the
   * ids answered so far. The id lists are replaced, never changed in place, so a copy of
   * the state (one per request) shares them instead of copying them.
   */
  constructor(
    public role: MessageParam['role'] | null = null,
    public asked: readonly string[] = NO_IDS,
    public askedAt = -1,
    public answered: readonly string[] = NO_IDS,
    /** The current user turn has had a block other than a tool_result. */
    public other = false,
  ) {}

  copy(): Pairing {
    return new Pairing(this.role, this.asked, this.askedAt, this.answered, this.other);
  }

  /** The problem with message `i`, or null; `last` allows the final assistant prefill to be empty. */
  step(message: MessageParam, i: number, last: boolean, tools: ReadonlySet<string>): string | null {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (i === 0 && message.role !== 'user') return 'messages: first message must use the "user" role';
    const blocks = blocksOf(message);
    if (blocks.length === 0 && !(last && message.role === 'assistant')) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (message.role !== this.role) {
      // A user turn must have answered every call of the assistant turn before it.
      if (this.role === 'user') {
        const problem = this.unanswered();
        if (problem !== null) return problem;
      }
      if (message.role === 'assistant') {
        this.asked = NO_IDS;
        this.askedAt = i;
      }
      this.answered = NO_IDS;
      this.other = false;
      this.role = message.role;
    }
    for (let j = 0; j < blocks.length; j++) {
      const block = blocks[j]!;
      if (block.type === 'text' && block.text === '')
        return `messages.${i}.content.${j}.text: text content blocks must be non-empty`;
      if (block.type === 'tool_use') {
        if (this.role !== 'assistant')
          return `messages.${i}.content.${j}: tool_use blocks may only appear in assistant messages`;
        if (!tools.has(block.name))
          return `messages.${i}.content.${j}.name: tool '${block.name}' is not one of the request's tools`;
        this.asked = appended(this.asked, block.id);
      } else if (block.type === 'tool_result') {
        if (this.role !== 'user')
          return `messages.${i}.content.${j}: tool_result blocks may only appear in user messages`;
        if (!this.asked.includes(block.tool_use_id) || this.answered.includes(block.tool_use_id)) {
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
        if (this.other)
          return `messages.${i}.content.${j}: \`tool_result\` blocks must come first in the content of a user message, before any other block`;
        this.answered = appended(this.answered, block.tool_use_id);
      } else {
        this.other = true;
      }
    }
    return null;
  }

  /** Calls of the last assistant turn not answered (yet). */
  unanswered(): string | null {
    if (this.answered.length >= this.asked.length) return null;
    const ids = this.asked.filter((id) => !this.answered.includes(id)).join(', ');
    return `messages.${this.askedAt}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
}

/**
 * Pairing state after all but the last message of a transcript already checked, by the
 * transcript array. The loop sends its live transcript and only appends to it, so the
 * next request resumes where this one stopped instead of walking the whole run again;
 * `seen` proves the prefix is the same message objects (a rewritten history starts over).
 */
interface Checked {
  readonly tools: string;
  readonly seen: MessageParam[];
  readonly pairing: Pairing;
}
const checked = new TranscriptReadings<Checked>();

function resumable(entry: Checked | undefined, messages: readonly MessageParam[], tools: string): entry is Checked {
  return entry !== undefined && entry.tools === tools && extendsPrefix(entry.seen, messages);
}

const NO_TOOLS: NonNullable<ModelRequest['tools']> = [];

/** The custom tool names of a request, their key for `Checked`, and the first duplicate name. */
const readToolNames = memoByToolList((list) => {
  const names = new Set<string>();
  for (const tool of list) {
    // Toolsets (e.g. a browser toolset) have no single name; they cannot collide with custom tools here.
    if (!('name' in tool)) continue;
    if (names.has(tool.name)) return { names, key: '', problem: `tools: Tool names must be unique: '${tool.name}'` };
    names.add(tool.name);
  }
  return { names: names as ReadonlySet<string>, key: [...names].join('\u0000'), problem: null };
});

/**
 * Why the Messages API would refuse a request with a 400 `invalid_request_error`, or null
 * when it would accept it. The checks are the API's own, worded as it words them:
 * - `model`, `max_tokens` and a non-empty `messages` are required; roles are `user` or
 *   `assistant` and the first message is the user's;
 * - every message has content (a final assistant prefill may be empty), text blocks are
 *   not empty;
 * - tool names are unique; a `tool_use` names an offered tool; `tool_choice` names one;
 * - every `tool_result` answers a `tool_use` of the assistant turn just before it, comes
 *   before any other block of its message, and every `tool_use` is answered in the next turn.
 * Consecutive messages of one role are one turn, as the API combines them.
 */
export function requestProblem(request: ModelRequest): string | null {
  if (typeof request.model !== 'string' || request.model === '') return 'model: Field required';
  if (!Number.isInteger(request.max_tokens) || request.max_tokens < 1)
    return 'max_tokens: Input should be a positive integer';
  const { messages } = request;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';

  const { names: tools, key: toolKey, problem: toolsProblem } = readToolNames(request.tools ?? NO_TOOLS);
  if (toolsProblem !== null) return toolsProblem;
  const choice = request.tool_choice;
  if (choice?.type === 'tool' && !tools.has(choice.name))
    return `tool_choice.name: Tool '${choice.name}' not found in tools`;
  if ((choice?.type === 'tool' || choice?.type === 'any') && tools.size === 0)
    return 'tool_choice: tool_choice may only be specified while providing tools';

  const entry = checked.lookup(messages);
  const resume = resumable(entry, messages, toolKey);
  // The entry's state is advanced in place: this request replaces the entry (or drops it
  // on a problem, so a later request on the array starts over rather than from a half step).
  const seen = resume ? entry.seen : [];
  const pairing = resume ? entry.pairing : new Pairing();
  const last = messages.length - 1;
  for (let i = seen.length; i < last; i++) {
    const problem = pairing.step(messages[i]!, i, false, tools);
    if (problem !== null) {
      checked.delete(messages);
      return problem;
    }
    seen.push(messages[i]!);
  }
  if (!resume) checked.set(messages, { tools: toolKey, seen, pairing });
  // Checked on a copy: the next request may replace the last message (an appended note)
  // or no longer end with it.
  const after = pairing.copy();
  return after.step(messages[last]!, last, true, tools) ?? after.unanswered();
}

/** The API's answer to a request it refuses, the same in-process and over HTTP. */
export function invalidRequestResponse(problem: string): Extract<ModelFaultResponse, { kind: 'http' }> {
  return {
    kind: 'http',
    status: 400,
    body: { type: 'error', error: { type: 'invalid_request_error', message: problem } },
    headers: { 'content-type': 'application/json', 'request-id': 'req_sim_invalid' },
  };
}
