import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';
import { mcpFailure, mcpSuccess } from './mcp-tool-answer.js';
import { mcpTools } from './mcp-tools.js';
import type { ServedRun } from './served-run.js';
import { StatelessMcpTransport } from './stateless-mcp-transport.js';

/**
 * The tools of a served sweep's runs as one MCP server (the official SDK's low-level
 * server), built once and answering every run's requests over stateless Streamable HTTP:
 * a client needs no session, each request names its run by its URL, and a run's state
 * lives in the run alone. Tools are listed with the scenario's JSON Schemas as given; each
 * call meets its seeded fault in MCP's form (see mcp-tool-answer.ts).
 *
 * @example
 * const mcp = new McpSweepServer();
 * if (path === `/runs/${run.id}/mcp`) await mcp.answer(run, request, response, JSON.parse(body));
 */
export class McpSweepServer {
  readonly #server = new Server({ name: 'spiralbench', version: VERSION }, { capabilities: { tools: {} } });
  readonly #transport = new StatelessMcpTransport<ServedRun>();
  readonly #connected: Promise<void>;

  constructor() {
    this.#server.setRequestHandler(ListToolsRequestSchema, (_list, extra) => {
      const { host } = this.#runOf(extra.requestId).session;
      return { tools: mcpTools(host.definitions, (name) => host.traits(name)) };
    });
    this.#server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
      const run = this.#runOf(extra.requestId);
      const { name } = call.params;
      if (run.session.host.traits(name) === undefined)
        // A plain error with a code: an McpError's message carries "MCP error -32602: ", which clients add again.
        throw Object.assign(new Error(`unknown tool '${name}'; tools/list names this run's tools`), {
          code: ErrorCode.InvalidParams,
        });
      const answer = await run.callTool(name, call.params.arguments ?? {});
      return answer.kind === 'ok' ? mcpSuccess(answer.text) : mcpFailure(answer.failure.error);
    });
    this.#connected = this.#server.connect(this.#transport);
  }

  /** Answers one MCP request (`body` parsed, or the text that is not JSON) to `run`'s tools. */
  async answer(run: ServedRun, request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const invalid = invalidToolCall(body);
    if (invalid !== undefined) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(invalid));
      return;
    }
    await this.#connected;
    await this.#transport.answer(request, response, body, run);
  }

  close(): Promise<void> {
    return this.#server.close();
  }

  #runOf(id: RequestId): ServedRun {
    const run = this.#transport.contextOf(id);
    // The transport holds a request's run until the server answers it: a handler always finds it.
    if (run === undefined) throw new Error(`MCP request ${String(id)} has no run`);
    return run;
  }
}

/**
 * The JSON-RPC error for a `tools/call` whose params the SDK would refuse with a schema
 * dump under an internal error (-32603): invalid params (-32602), in one sentence. A
 * batch, or any other request, is the transport's to answer.
 */
function invalidToolCall(body: unknown): object | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: unknown };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  let message: string | undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    message = `tools/call: params must be an object naming the tool and its arguments, got ${kindOf(params)}`;
  else {
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string') message = `tools/call: name must be the tool's name as a string, got ${kindOf(name)}`;
    else if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      message = `tools/call: arguments must be a JSON object of the tool's parameters, got ${kindOf(args)}`;
  }
  return message === undefined ? undefined : { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message } };
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
