import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { ModelFaultSource } from '../../faults/model-faults.js';
import type { Message, ModelClient, ModelRequest } from '../model-client.js';
import { requestProblem } from '../simulated/request-validation.js';
import type { SimulatedModel } from '../simulated/simulated-model.js';
import { chatFaultResponse, chatWireError, invalidChatRequest, type ChatErrorResponse } from './chat-errors.js';
import { fromChatRequest, toChatRequest, UnsupportedAtChatEdge, type ChatRequest } from './chat-request.js';
import { fromChatCompletion, toChatCompletion } from './chat-response.js';
import type { MalformedArguments } from '../../faults/malformed-arguments.js';

export interface SimulatedChatOptions {
  readonly model: SimulatedModel;
  /** Model faults, answered as an OpenAI-compatible server answers them. @default none */
  readonly faults?: ModelFaultSource;
  /** Which tool calls the model writes malformed. @default none */
  readonly malformed?: MalformedArguments;
}

/** A Chat Completions call answered: the completion, or the error the server sends. */
export type ChatAnswer =
  | { readonly kind: 'completion'; readonly completion: ChatCompletion }
  | { readonly kind: 'error'; readonly response: ChatErrorResponse };

/**
 * The simulated model as a Chat Completions server, shared by the HTTP endpoint and the
 * in-process fast path so both answer alike by construction. The request is read back
 * into the Messages shape the model understands; a fault may fail it first, and a request
 * the API would refuse gets a 400. The reply's tool calls carry their arguments as text,
 * some written malformed, decided by (run, turn). The model learns of none of it.
 */
export function answerChat(chat: ChatRequest, options: SimulatedChatOptions): ChatAnswer {
  let request: ModelRequest;
  try {
    request = fromChatRequest(chat);
  } catch (error) {
    if (error instanceof UnsupportedAtChatEdge)
      return { kind: 'error', response: invalidChatRequest(`unsupported at this endpoint: ${error.message}`) };
    throw error;
  }
  // Read back into a fresh array, the edge's own.
  options.model.adoptPrefix(request.messages);
  const fault = options.faults?.next(request) ?? null;
  if (fault !== null) return { kind: 'error', response: chatFaultResponse(fault, request.model) };
  const problem = requestProblem(request);
  if (problem !== null) return { kind: 'error', response: invalidChatRequest(problem) };
  const completion = toChatCompletion(options.model.respond(request));
  let turn = 0;
  for (const message of request.messages) if (message.role === 'assistant') turn += 1;
  return { kind: 'completion', completion: options.malformed?.apply(completion, turn) ?? completion };
}

/**
 * The fast path: the same Chat Completions exchange in-process, without HTTP or the
 * `openai` client. The request goes through the same translation both ways and errors
 * are the ones the edge client raises, so a run is identical either way (contract test).
 *
 * @example
 * const model = new SimulatedChatModel({ model: simulated, malformed: new MalformedArguments({ fenced: 0.1 }, key) });
 */
export class SimulatedChatModel implements ModelClient {
  readonly name = 'simulated-openai';
  readonly #options: SimulatedChatOptions;

  constructor(options: SimulatedChatOptions) {
    this.#options = options;
  }

  async create(request: ModelRequest): Promise<Message> {
    const answer = answerChat(toChatRequest(request), this.#options);
    if (answer.kind === 'error') throw chatWireError(answer.response);
    return fromChatCompletion(answer.completion);
  }
}
