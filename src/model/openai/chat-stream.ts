import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';

const TEXT_CHUNK_CHARS = 24;
const ARGUMENT_CHUNK_CHARS = 16;

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/**
 * A completion as Chat Completions streams it with `stream: true`: a first chunk with the
 * role, the text in `content` deltas, each tool call announced with its id, name and empty
 * arguments and then its argument text in pieces (`index` names the call), a last chunk
 * with the `finish_reason`, and with `stream_options.include_usage` a usage chunk whose
 * `choices` is empty. Concatenating the deltas gives back the completion's message.
 */
export function chatCompletionChunks(completion: ChatCompletion, includeUsage: boolean): ChatCompletionChunk[] {
  const { id, created, model } = completion;
  const chunk = (choices: ChatCompletionChunk['choices']): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices,
  });
  const delta = (value: ChatCompletionChunk.Choice.Delta): ChatCompletionChunk =>
    chunk([{ index: 0, delta: value, finish_reason: null, logprobs: null }]);
  const choice = completion.choices[0];
  const chunks = [delta({ role: 'assistant', content: '', refusal: null })];
  if (choice === undefined) return chunks;
  for (const content of pieces(choice.message.content ?? '', TEXT_CHUNK_CHARS)) chunks.push(delta({ content }));
  (choice.message.tool_calls ?? []).forEach((call, index) => {
    if (call.type !== 'function') return;
    chunks.push(
      delta({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    for (const args of pieces(call.function.arguments, ARGUMENT_CHUNK_CHARS))
      chunks.push(delta({ tool_calls: [{ index, function: { arguments: args } }] }));
  });
  chunks.push(chunk([{ index: 0, delta: {}, finish_reason: choice.finish_reason, logprobs: null }]));
  if (includeUsage && completion.usage !== undefined) chunks.push({ ...chunk([]), usage: completion.usage });
  return chunks;
}

/** The chunks as server-sent events: one `data:` frame each, then `data: [DONE]`. */
export function chatSseFrames(chunks: readonly ChatCompletionChunk[]): string[] {
  return [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n'];
}
