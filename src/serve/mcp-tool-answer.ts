import { type CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ToolError } from '../tools/tool-error.js';

/**
 * A failed tool execution in the form an MCP client meets it. The fault itself was drawn
 * by the run's seeded tool host, exactly as in-process; only its wire form is chosen here:
 * - the tool's own failure (429, 503, 401, not found, invalid input, a handler exception):
 *   a tool result with `isError: true` and the failure's message, as an MCP server reports
 *   a tool that ran and failed;
 * - a timeout: a JSON-RPC error with code -32001, the code an MCP client raises for its own
 *   request timeout, carrying the fault's message;
 * - a dropped connection (connection refused, or partial_write's answer lost after the
 *   write happened): a JSON-RPC internal error (-32603), the protocol-level failure a
 *   client sees when the server behind the tool went away.
 * A truncated body (malformed_json) is not a failure here: it is the tool's result text,
 * cut off, as an in-process agent gets it.
 *
 * @example
 * const answer = mcpFailure(new ToolError('rate_limited', 'get_user: HTTP 429', { status: 429 }));
 * // { isError: true, content: [{ type: 'text', text: 'get_user: HTTP 429' }] }
 */
export function mcpFailure(error: ToolError): CallToolResult {
  switch (error.code) {
    case 'timeout':
      throw protocolError(ErrorCode.RequestTimeout, error.message);
    case 'connection_refused':
    case 'connection_reset':
      throw protocolError(ErrorCode.InternalError, error.message);
    default:
      return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
}

/**
 * A JSON-RPC error whose message is the fault's own words. The SDK's server answers a
 * thrown error with its `code` and `message`; an McpError's message already carries the
 * "MCP error <code>: " prefix, which the client would then add a second time.
 */
function protocolError(code: ErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A successful execution's text as an MCP tool result. */
export function mcpSuccess(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}
