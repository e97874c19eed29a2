import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolTraits } from '../loop/tool-host.js';

/**
 * A scenario's tool definitions as MCP lists them: the JSON Schema as given, and what the
 * harness knows of each tool in its annotations. A read-only tool is marked read-only and
 * idempotent (retrying it is safe); a side-effecting one is neither, so a client that
 * honours the hints will not retry a write blindly. Writes are not declared destructive:
 * the scenarios' writes add or replace records, they do not delete.
 *
 * @example
 * const tools = mcpTools(host.definitions, (name) => host.traits(name));
 */
export function mcpTools(definitions: readonly Tool[], traits: (name: string) => ToolTraits | undefined): McpTool[] {
  return definitions.map((definition) => {
    const writes = traits(definition.name)?.sideEffecting ?? true;
    return {
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      inputSchema: definition.input_schema as McpTool['inputSchema'],
      annotations: writes
        ? { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
        : { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    };
  });
}
