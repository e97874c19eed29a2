import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

/** One POST's requests, waiting for their answers; `context` is what the POST was for (its run). */
interface Exchange<Context> {
  readonly context: Context;
  /** The client's request ids, in the order the SDK's transport answers them, each with its answer once sent. */
  readonly answers: Map<RequestId, JSONRPCMessage | undefined>;
  readonly resolve: (answers: JSONRPCMessage[]) => void;
  done: boolean;
}

/** A request dispatched to the server, under the id the server knows it by. */
interface Pending<Context> {
  readonly exchange: Exchange<Context>;
  readonly id: RequestId;
}

/**
 * Stateless Streamable HTTP (JSON answers, no session) for one long-lived MCP server: each
 * POST is answered as the SDK's `StreamableHTTPServerTransport` answers it when built for
 * that request alone, byte for byte (the same checks, statuses, JSON-RPC errors and
 * bodies), without building a server and a transport per request. The SDK refuses to
 * reuse a stateless transport because two clients' request ids would collide; here each
 * request reaches the server under an id of its own and its answer goes back under the
 * client's, so requests of different POSTs never meet. A notification only reaches the
 * server as it could before: a cancellation only for a request of its own POST (a fresh
 * server knew no other), and a client's response never (this server asks nothing).
 *
 * @example
 * const transport = new StatelessMcpTransport<ServedRun>();
 * await server.connect(transport);
 * await transport.answer(request, response, JSON.parse(body), run); // handlers read the run with contextOf(extra.requestId)
 */
export class StatelessMcpTransport<Context> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #pending = new Map<number, Pending<Context>>();
  #nextId = 0;
  #closed = false;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending.clear();
    this.onclose?.();
  }

  /** What the request the server knows as `id` was sent for, until the server answers it. */
  contextOf(id: RequestId): Context | undefined {
    return typeof id === 'number' ? this.#pending.get(id)?.exchange.context : undefined;
  }

  /** The server's answer to one of its requests goes back to the POST that asked, under the client's id. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const pending = typeof message.id === 'number' ? this.#pending.get(message.id) : undefined;
    if (pending === undefined) return;
    this.#pending.delete(message.id as number);
    const { exchange, id } = pending;
    if (exchange.done) return;
    exchange.answers.set(id, { ...message, id });
    const answers = [...exchange.answers.values()];
    if (answers.every((answer) => answer !== undefined)) {
      exchange.done = true;
      exchange.resolve(answers as JSONRPCMessage[]);
    }
  }

  /**
   * Answers one POST whose body was already read (`body` parsed JSON, or the text that
   * was not JSON). Resolves once the answer is written; a client that hangs up first
   * gets nothing, and its requests' late answers are dropped.
   */
  async answer(request: IncomingMessage, response: ServerResponse, body: unknown, context: Context): Promise<void> {
    if (this.#closed) return refuse(response, 404, -32001, 'Session not found');
    const { headers } = request;
    const accept = headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream'))
      return refuse(
        response,
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    if (!isJsonContentType(joinedHeader(request, 'content-type')))
      return refuse(response, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE)
      return refuse(response, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    let messages: JSONRPCMessage[];
    try {
      messages = Array.isArray(body)
        ? body.map((message) => JSONRPCMessageSchema.parse(message))
        : [JSONRPCMessageSchema.parse(body)];
    } catch {
      return refuse(response, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1)
        return refuse(response, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
    } else {
      const version = joinedHeader(request, 'mcp-protocol-version');
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
        return refuse(
          response,
          400,
          -32000,
          `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
        );
      }
    }
    if (!messages.some(isJSONRPCRequest)) {
      for (const message of messages) this.#deliver(message, undefined);
      response.writeHead(202, {});
      response.end();
      return;
    }
    const answers = await new Promise<JSONRPCMessage[] | undefined>((resolve) => {
      const exchange: Exchange<Context> = { context, answers: new Map(), resolve, done: false };
      const ids = new Map<RequestId, number>();
      for (const message of messages)
        if (isJSONRPCRequest(message)) {
          const id = this.#nextId++;
          this.#pending.set(id, { exchange, id: message.id });
          exchange.answers.set(message.id, undefined);
          ids.set(message.id, id);
        }
      // A request already dispatched still runs (its tool call is made, as before); only its answer is dropped.
      response.once('close', () => {
        if (exchange.done) return;
        exchange.done = true;
        resolve(undefined);
      });
      for (const message of messages) this.#deliver(message, ids);
    });
    if (answers === undefined) return;
    const text = JSON.stringify(answers.length === 1 ? answers[0] : answers);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  }

  /** One message to the server: a request under its own id, a notification as a fresh server would have met it. */
  #deliver(message: JSONRPCMessage, ids: ReadonlyMap<RequestId, number> | undefined): void {
    if (isJSONRPCRequest(message)) {
      const id = ids?.get(message.id);
      if (id !== undefined) this.onmessage?.({ ...message, id });
      return;
    }
    if (!isJSONRPCNotification(message)) return;
    if (message.method === 'notifications/cancelled') {
      const asked = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const id = typeof asked === 'string' || typeof asked === 'number' ? ids?.get(asked) : undefined;
      if (id !== undefined) this.onmessage?.({ ...message, params: { ...message.params, requestId: id } });
      return;
    }
    this.onmessage?.(message);
  }
}

/**
 * A header as a fetch Request's `headers.get` reads it, every repeat joined with ", ": the
 * SDK's transport reads it so, where Node keeps only the first Content-Type.
 */
function joinedHeader(request: IncomingMessage, name: string): string | undefined {
  const values: string[] = [];
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2)
    if (raw[index]?.toLowerCase() === name) values.push(raw[index + 1] ?? '');
  return values.length === 0 ? undefined : values.join(', ');
}

/** A JSON-RPC error without an id, as the SDK's transport answers a request it refuses. */
function refuse(response: ServerResponse, status: number, code: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
