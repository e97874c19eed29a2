import type { Message, ModelClient, ModelRequest } from '../model/model-client.js';
import type { Guard, LoopContext, ModelCallResult, SendModelRequest } from './guard.js';
import { readStreamedReply, type StreamingOptions } from './streamed-reply.js';

const replied = (message: Message): ModelCallResult => ({ kind: 'reply', message });
const failed = (error: unknown): ModelCallResult => ({ kind: 'error', error });

/**
 * Sends one model request through the guards' model-call wrappers. The client's
 * rejection becomes a value (`error`), so guards read failures without try/catch and
 * the loop decides what an unrecovered one means. With `streaming`, the innermost send
 * reads the reply as a stream (a cut stream is an error like any other, for the same
 * guards to recover) and the reply carries when each block ended.
 */
export function callModel(
  model: ModelClient,
  request: ModelRequest,
  guards: readonly Guard[],
  ctx: LoopContext,
  signal: AbortSignal | undefined,
  streaming?: StreamingOptions,
): Promise<ModelCallResult> {
  const options = signal === undefined ? NO_OPTIONS : { signal };
  // Most arms wrap nothing: the call goes straight out, with no chain of sends built for it.
  if (streaming === undefined && !guards.some(wrapsModelCall)) return createOnce(model, request, options);
  let send: SendModelRequest =
    streaming === undefined
      ? (sent) => createOnce(model, sent, options)
      : async (sent) => {
          try {
            const { message, timing } = await readStreamedReply(model, sent, options, streaming.onText);
            return { kind: 'reply', message, timing };
          } catch (error) {
            return { kind: 'error', error };
          }
        };
  for (const guard of guards) {
    const around = guard.aroundModelCall;
    if (around === undefined) continue;
    const inner = send;
    send = (sent) => around.call(guard, ctx, sent, inner);
  }
  return send(request);
}

/** Options for a call without a signal, shared: clients read them, never write them (and cannot). */
const NO_OPTIONS: { readonly signal?: AbortSignal } = Object.freeze({});

const wrapsModelCall = (guard: Guard): boolean => guard.aroundModelCall !== undefined;

/**
 * The client's promise, mapped to a value in one step: an async function awaiting it
 * cost extra microtask hops on every call. A client that throws instead of rejecting is
 * answered the same way.
 */
function createOnce(
  model: ModelClient,
  request: ModelRequest,
  options: { readonly signal?: AbortSignal },
): Promise<ModelCallResult> {
  try {
    return model.create(request, options).then(replied, failed);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
}
