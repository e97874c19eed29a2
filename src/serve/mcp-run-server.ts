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
