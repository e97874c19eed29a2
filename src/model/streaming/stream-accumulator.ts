import type { ContentBlock, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '../model-client.js';

/** A tool call's arguments once its block is complete: the JSON object, or the text as sent when it is not JSON. */
function parsedInput(json: string): unknown {
  if (json === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * Builds the reply from stream events, the way the SDK's MessageStream does: text and
 * argument deltas appended to their block, a tool call's arguments parsed once its
 * block stops, stop reason and final usage from `message_delta`. `message` is the reply
 * once `message_stop` has arrived, null before.
 */
export class StreamAccumulator {
  #snapshot: Message | null = null;
  #json = new Map<number, string>();
  #done = false;

  /** Takes one event; returns the block it completed (at `content_block_stop`), if any. */
  push(event: RawMessageStreamEvent): ContentBlock | null {
    if (event.type === 'message_start') {
      if (this.#snapshot !== null) throw new Error('stream: message_start twice');
      this.#snapshot = { ...event.message, content: [...event.message.content], usage: { ...event.message.usage } };
      return null;
    }
    const snapshot = this.#snapshot;
    if (snapshot === null) throw new Error(`stream: ${event.type} before message_start`);
    switch (event.type) {
      case 'content_block_start':
        snapshot.content[event.index] = { ...event.content_block };
        return null;
      case 'content_block_delta': {
        const block = snapshot.content[event.index];
        if (block === undefined) throw new Error(`stream: delta for block ${event.index}, which has not started`);
        if (event.delta.type === 'text_delta' && block.type === 'text') block.text += event.delta.text;
        else if (event.delta.type === 'input_json_delta')
          this.#json.set(event.index, (this.#json.get(event.index) ?? '') + event.delta.partial_json);
        return null;
      }
      case 'content_block_stop': {
        const block = snapshot.content[event.index];
        if (block === undefined) throw new Error(`stream: block ${event.index} stopped without starting`);
        // The API always sends argument deltas (the first one empty); a block announced whole
        // (a replayed reply whose arguments are text, from the OpenAI-compatible edge) keeps its input.
        const json = this.#json.get(event.index);
        if (block.type === 'tool_use' && json !== undefined) block.input = parsedInput(json);
        return block;
      }
      case 'message_delta':
        snapshot.stop_reason = event.delta.stop_reason;
        snapshot.stop_sequence = event.delta.stop_sequence;
        snapshot.stop_details = event.delta.stop_details;
        if (event.delta.container !== null) snapshot.container = event.delta.container;
        snapshot.usage.output_tokens = event.usage.output_tokens;
        // Whole-message totals, sent when they apply: overwrite, never add.
        if (event.usage.input_tokens != null) snapshot.usage.input_tokens = event.usage.input_tokens;
        if (event.usage.cache_creation_input_tokens != null)
          snapshot.usage.cache_creation_input_tokens = event.usage.cache_creation_input_tokens;
        if (event.usage.cache_read_input_tokens != null)
          snapshot.usage.cache_read_input_tokens = event.usage.cache_read_input_tokens;
        if (event.usage.server_tool_use != null) snapshot.usage.server_tool_use = event.usage.server_tool_use;
        if (event.usage.output_tokens_details != null)
          snapshot.usage.output_tokens_details = event.usage.output_tokens_details;
        return null;
      case 'message_stop':
        this.#done = true;
        return null;
    }
  }

  /** The whole reply, once `message_stop` has arrived; null while the stream is unfinished. */
  get message(): Message | null {
    return this.#done ? this.#snapshot : null;
  }
}
