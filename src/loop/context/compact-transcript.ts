import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelRequest } from '../../model/model-client.js';
import { formatPinned, pinnedResults } from './pinned-results.js';
import { splitIndex } from './transcript-split.js';

/** What the summary call is asked; a model recognises a summarisation request by these words. */
export const SUMMARY_INSTRUCTION =
  'Summarize the conversation above so that the work can continue from your summary alone: the task, each tool call with its arguments and outcome, and the facts each successful result established. Reply with the summary only.';

export interface CompactionInput {
  /** The request whose transcript is compacted (its tools go into the summary request, which carries tool calls). */
  readonly request: ModelRequest;
  /** Messages kept verbatim at the end, at least. */
  readonly keepLast: number;
  /** Deep prune (R2): said so in the summary message. */
  readonly deep: boolean;
  /** Pin the latest successful result of each tool into the summary message. */
  readonly pin: boolean;
  /** Model and output limit of the summary call. */
  readonly summaryModel: string;
  readonly summaryMaxTokens: number;
  /** Assistant turns so far in the run, for the notice of a truncation. */
  readonly turnsSoFar: number;
  /** Text added after the summary (and pins), e.g. the run journal; empty for none. */
  readonly appendix: string;
  /** Sends the summary request; null when it failed (the transcript is then truncated instead). */
  readonly summarise: (request: ModelRequest) => Promise<Message | null>;
}

export interface Compaction {
  readonly messages: MessageParam[];
  /** Whether a model wrote the summary, or the older part was dropped without one. */
  readonly summary: 'model' | 'truncated';
  readonly pinned: number;
  /** The summary call's reply, whose usage is the compaction's cost (also when it said nothing usable); null when the call failed. */
  readonly reply: Message | null;
}

function withInstruction(older: readonly MessageParam[]): MessageParam[] {
  const last = older.at(-1)!;
  const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  const instruction: TextBlockParam = { type: 'text', text: SUMMARY_INSTRUCTION };
  return [...older.slice(0, -1), { role: 'user', content: [...content, instruction] }];
}

function replyText(reply: Message): string {
  return reply.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
}

/**
 * Replaces the older part of a transcript with one user message: a summary written by a
 * model call (the older messages plus an instruction, sent with tool_choice none), then
 * the pinned results as plain text, then the appendix. The last `keepLast` messages (or
 * one more, to start the kept part at an assistant turn) stay verbatim. When the summary
 * call fails or answers nothing, the older part is dropped with a notice instead
 * (deterministic truncation), so work never waits on the summary. Null when there is
 * nothing older to replace.
 */
export async function compactTranscript(input: CompactionInput): Promise<Compaction | null> {
  const { request, keepLast } = input;
  const split = splitIndex(request.messages, keepLast);
  if (split === null) return null;
  const older = request.messages.slice(0, split);
  const kept = request.messages.slice(split);
  const reply = await input.summarise({
    model: input.summaryModel,
    max_tokens: input.summaryMaxTokens,
    messages: withInstruction(older),
    ...(request.tools === undefined ? {} : { tools: request.tools, tool_choice: { type: 'none' } }),
  });
  const text = reply === null ? '' : replyText(reply);
  const pins = input.pin ? pinnedResults(older) : [];
  let keptTurns = 0;
  for (const message of kept) if (message.role === 'assistant') keptTurns += 1;
  const head =
    text === ''
      ? `[Context truncated: ${input.turnsSoFar - keptTurns} earlier turns were dropped to fit the context window; their results are no longer available.]`
      : input.deep
        ? `This conversation was deep-pruned to fit the context window: only its last ${kept.length} messages were kept, and this summary replaces the rest.\n\n${text}`
        : `This conversation was compacted to fit the context window; this summary replaces its earlier part.\n\n${text}`;
  const parts = [head, formatPinned(pins), input.appendix].filter((part) => part !== '');
  const summary: MessageParam = { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] };
  return { messages: [summary, ...kept], summary: text === '' ? 'truncated' : 'model', pinned: pins.length, reply };
}
