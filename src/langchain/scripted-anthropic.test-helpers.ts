import { ChatAnthropic } from '@langchain/anthropic';

/** One scripted answer of the Messages endpoint: a reply's blocks, or an HTTP error. */
export type ScriptedAnswer =
  | { readonly blocks: readonly Record<string, unknown>[] }
  | { readonly status: number; readonly type: string; readonly headers?: Record<string, string> };

export const say = (text: string): ScriptedAnswer => ({ blocks: [{ type: 'text', text }] });

export const call = (name: string, input: Record<string, unknown>, id: string): ScriptedAnswer => ({
  blocks: [{ type: 'tool_use', id, name, input }],
});

/** A request as the endpoint received it (its JSON body). */
export interface SeenRequest {
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: unknown }>;
  readonly tools?: ReadonlyArray<{ readonly name: string }>;
  readonly tool_choice?: { readonly type: string; readonly name?: string };
  readonly model: string;
}

/**
 * ChatAnthropic over a fetch that answers from a script, in order, and keeps every request
 * body: what LangChain really sent, through its own client and the SDK it bundles.
 */
export function scriptedChat(script: readonly ScriptedAnswer[]): {
  readonly model: ChatAnthropic;
  readonly requests: SeenRequest[];
} {
  let n = 0;
  return answeringChat((_request, count) => {
    const answer = script[n++];
    if (answer === undefined) throw new Error(`the script has no answer for request ${count}`);
    return answer;
  });
}

/** ChatAnthropic over a fetch that answers each request as `answer` says (given the request and its number, from 1). */
export function answeringChat(answer: (request: SeenRequest, count: number) => ScriptedAnswer): {
  readonly model: ChatAnthropic;
  readonly requests: SeenRequest[];
} {
  const requests: SeenRequest[] = [];
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as SeenRequest;
    requests.push(body);
    const n = requests.length;
    const scripted = answer(body, n);
    if ('status' in scripted)
      return new Response(JSON.stringify({ type: 'error', error: { type: scripted.type, message: scripted.type } }), {
        status: scripted.status,
        headers: { 'content-type': 'application/json', ...scripted.headers },
      });
    const calls = scripted.blocks.some((block) => block['type'] === 'tool_use');
    return Response.json({
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: scripted.blocks,
      stop_reason: calls ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
  };
  const model = new ChatAnthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    maxRetries: 0,
    clientOptions: { fetch: fetch as typeof globalThis.fetch },
  });
  return { model, requests };
}

/** The text blocks of a request's last user message. */
export function lastUserText(request: SeenRequest): string {
  const last = request.messages.at(-1);
  if (last === undefined || last.role !== 'user') return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content as ReadonlyArray<{ type: string; text?: string }>)
    .map((block) => (block.type === 'text' ? (block.text ?? '') : ''))
    .join('');
}

/** Every tool_result block of a request, in order. */
export function toolResults(
  request: SeenRequest,
): ReadonlyArray<{ readonly tool_use_id: string; readonly content: unknown; readonly is_error?: boolean }> {
  return request.messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : (message.content as ReadonlyArray<{ type: string }>).filter((block) => block.type === 'tool_result'),
  ) as never;
}
