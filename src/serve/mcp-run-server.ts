import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';
import { mcpFailure, mcpSuccess } from './mcp-tool-answer.js';
import { mcpTools } from './mcp-tools.js';
import type { ServedRun } from './served-run.js';

/**
 * One MCP request to a run's tools, answered by the official SDK's low-level server over
 * Streamable HTTP, stateless: each request gets its own server and transport, so a
 * client needs no session and a run's state lives in the run alone. Tools are listed
 * with the scenario's JSON Schemas as given; each call meets its seeded fault in MCP's
 * form (see mcp-tool-answer.ts).
 *
 * @example
 * if (path === `/runs/${run.id}/mcp`) await answerMcp(run, request, response, JSON.parse(body));
 */
export async function answerMcp(
  run: ServedRun,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
): Promise<void> {
  const invalid = invalidToolCall(body);
  if (invalid !== undefined) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(invalid));
    return;
  }
  const server = new Server({ name: 'spiralbench', version: VERSION }, { capabilities: { tools: {} } });
  const { host } = run.session;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: mcpTools(host.definitions, (name) => host.traits(name)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const { name } = call.params;
    if (host.traits(name) === undefined)
      // A plain error with a code: an McpError's message carries "MCP error -32602: ", which clients add again.
      throw Object.assign(new Error(`unknown tool '${name}'; tools/list names this run's tools`), {
        code: ErrorCode.InvalidParams,
      });
    const answer = await run.callTool(name, call.params.arguments ?? {});
    return answer.kind === 'ok' ? mcpSuccess(answer.text) : mcpFailure(answer.failure.error);
  });
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
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
