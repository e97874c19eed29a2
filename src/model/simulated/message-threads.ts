import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/** The `thread` field of a Messages request on the message-threads beta, as the SDK's tool runner sends it. */
export type ThreadField =
  | { readonly type: 'create' }
  | { readonly type: 'continue'; readonly previous_message_id: string };

/** A request body as it arrives, before the thread is read: `messages` may be only the delta. */
interface ThreadedBody {
  readonly thread?: unknown;
  readonly messages: readonly MessageParam[];
  readonly [field: string]: unknown;
}

export type ThreadRead =
  | { readonly kind: 'unthreaded' }
  /** The request as it would be unthreaded: the whole conversation, and the thread's `system` and `tools`. */
  | { readonly kind: 'threaded'; readonly body: Record<string, unknown> & { readonly messages: MessageParam[] } }
  | { readonly kind: 'error'; readonly status: number; readonly errorCode: string; readonly message: string };

/**
 * The server side of message threads for one simulated endpoint: the conversation it holds
 * between turns, by the id of the reply that ended each one. A `create` request carries the
 * whole history; a `continue` request carries only what came after its previous reply, and
 * is answered as the whole conversation, so the model (and the fault injector, which reads
 * the turn from it) sees exactly what an unthreaded request would show. The thread also
 * holds the fields a `continue` leaves out (`system`, `tools`). A request without `thread`
 * is untouched.
 */
export class MessageThreads {
  readonly #held = new Map<
    string,
    { readonly messages: readonly MessageParam[]; readonly createOnly: Readonly<Record<string, unknown>> }
  >();

  /** The full request a threaded request stands for. */
  read(body: ThreadedBody): ThreadRead {
    const { thread: field, ...rest } = body;
    const thread = field as ThreadField | undefined;
    if (thread === undefined) return { kind: 'unthreaded' };
    if (thread.type === 'create') return { kind: 'threaded', body: { ...rest, messages: [...body.messages] } };
    const held = this.#held.get(thread.previous_message_id);
    if (held === undefined)
      return {
        kind: 'error',
        status: 404,
        errorCode: 'thread_not_found',
        message: `thread: no message ${thread.previous_message_id}`,
      };
    return { kind: 'threaded', body: { ...rest, ...held.createOnly, messages: [...held.messages, ...body.messages] } };
  }

  /** Hold the conversation that `reply` ended (and its create-only fields), for a `continue` from it. */
  hold(
    request: { readonly messages: readonly MessageParam[]; readonly system?: unknown; readonly tools?: unknown },
    reply: { readonly id: string; readonly content: MessageParam['content'] },
  ): void {
    const createOnly = {
      ...(request.system === undefined ? {} : { system: request.system }),
      ...(request.tools === undefined ? {} : { tools: request.tools }),
    };
    this.#held.set(reply.id, {
      messages: [...request.messages, { role: 'assistant', content: reply.content }],
      createOnly,
    });
  }
}
