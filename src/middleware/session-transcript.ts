import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/**
 * The conversation as a session's guards read it (`LoopContext.messages`), in the
 * Anthropic Messages shape our loop keeps: the framework's opening turns, each reply,
 * each turn's tool results in one user message, and the guards' words appended to it.
 * Messages are replaced, never edited in place: guards cache readings per message.
 */
export class SessionTranscript {
  readonly messages: MessageParam[] = [];

  /** Replaces the transcript with the framework's opening turns. */
  open(messages: readonly MessageParam[]): void {
    this.messages.splice(0, this.messages.length, ...messages);
  }

  reply(content: readonly ContentBlockParam[]): void {
    this.messages.push({ role: 'assistant', content: [...content] });
  }

  /** A call's result joins the turn's results message, in the order the calls were put to the guards. */
  result(block: ToolResultBlockParam): void {
    const last = this.messages.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content) && last.content.some(isToolResult)) {
      this.messages[this.messages.length - 1] = { role: 'user', content: [...last.content, block] };
    } else {
      this.messages.push({ role: 'user', content: [block] });
    }
  }

  /** Words for the model, added to the last user message as our loop adds them. */
  userText(text: string): void {
    const last = this.messages.at(-1);
    const block: TextBlockParam = { type: 'text', text };
    if (last?.role === 'user') {
      const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
      this.messages[this.messages.length - 1] = { role: 'user', content: [...content, block] };
    } else {
      this.messages.push({ role: 'user', content: [block] });
    }
  }

  /** Whether the last reply holds a call with this id (a call the framework runs must be in the transcript first). */
  holdsCall(id: string): boolean {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i]!;
      if (message.role !== 'assistant') continue;
      return typeof message.content !== 'string' && message.content.some((b) => b.type === 'tool_use' && b.id === id);
    }
    return false;
  }
}

function isToolResult(block: ContentBlockParam): boolean {
  return block.type === 'tool_result';
}
