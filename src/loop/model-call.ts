import type { ModelClient, ModelRequest } from '../model/model-client.js';
import type { Guard, LoopContext, ModelCallResult, SendModelRequest } from './guard.js';

/**
 * Sends one model request through the guards' model-call wrappers. The client's
 * rejection becomes a value (`error`), so guards read failures without try/catch and
 * the loop decides what an unrecovered one means.
 */
export function callModel(model: ModelClient, request: ModelRequest, guards: readonly Guard[], ctx: LoopContext, signal: AbortSignal | undefined): Promise<ModelCallResult> {
  const options = signal === undefined ? {} : { signal };
  let send: SendModelRequest = async (sent) => {
    try {
      return { kind: 'reply', message: await model.create(sent, options) };
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
