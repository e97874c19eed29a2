import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ToolError, type ToolErrorCode } from '../tools/tool-error.js';
import { mcpFailure, mcpSuccess } from './mcp-tool-answer.js';

describe('mcpFailure', () => {
  it.each<ToolErrorCode>([
    'rate_limited',
    'server_error',
    'unauthorized',
    'not_found',
    'invalid_input',
    'handler_exception',
    'malformed_response',
  ])("answers the tool's own failure (%s) as an isError result with its message", (code) => {
    expect(mcpFailure(new ToolError(code, `get_user: ${code}`))).toEqual({
      isError: true,
      content: [{ type: 'text', text: `get_user: ${code}` }],
    });
  });

  it('raises a timeout as JSON-RPC error -32001 carrying the fault message alone', () => {
    expect(() => mcpFailure(new ToolError('timeout', 'get_user: request timed out after 10000 ms'))).toThrow(
      expect.objectContaining({
        code: ErrorCode.RequestTimeout,
        message: 'get_user: request timed out after 10000 ms',
      }),
    );
  });

  it.each<ToolErrorCode>(['connection_refused', 'connection_reset'])(
    'raises a dropped connection (%s) as an internal error',
    (code) => {
      expect(() => mcpFailure(new ToolError(code, 'gone'))).toThrow(
        expect.objectContaining({ code: ErrorCode.InternalError, message: 'gone' }),
      );
    },
  );

  it('answers success with the text as given, a truncated body included', () => {
    expect(mcpSuccess('{"id":"u_1","na')).toEqual({ content: [{ type: 'text', text: '{"id":"u_1","na' }] });
  });
});
