import type { Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { OUTPUT_MS_PER_TOKEN } from './model-latency.js';
import type { StreamTiming } from './streamed-reply.js';

/**
 * When the leading tool calls of a streamed reply start, in virtual ms: each at its
 * block's `content_block_stop`, i.e. the reply's end less the time its later output took
 * to generate. Only a leading run of concurrency-safe (read-only) calls starts early:
 *
 * - a side-effecting call waits for the whole reply: a write started from a reply that
 *   is then cut (and retried) or held back by a guard is a write the transcript never
 *   shows, and may be made twice; a read started in vain costs nothing but the read;
 * - a read after a write in the same reply waits too: started first, it would read the
 *   world before the write its reply meant it to follow.
 *
 * A call with no recorded stop (a block the stream never finished) ends the run. The
 * result is one start per early call, in call order; the other calls start as before.
 */
export function earlyStartTimes(
  calls: readonly ToolUseBlock[],
  reply: Message,
  timing: StreamTiming,
  replyEnd: number,
  concurrencySafe: (tool: string) => boolean,
): number[] {
  const starts: number[] = [];
  for (const call of calls) {
    if (!concurrencySafe(call.name)) break;
    const after = timing.tokensAfterBlock[reply.content.indexOf(call)];
    if (after === undefined) break;
    starts.push(replyEnd - after * OUTPUT_MS_PER_TOKEN);
  }
  return starts;
}
