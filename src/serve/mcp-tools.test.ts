import { describe, expect, it } from 'vitest';
import { mcpTools } from './mcp-tools.js';

describe('mcpTools', () => {
  const schema = { type: 'object' as const, properties: { id: { type: 'string' } }, required: ['id'] };
  const tools = mcpTools(
    [
      { name: 'get_user', description: 'Fetch a user', input_schema: schema },
      { name: 'write_result', input_schema: schema },
    ],
    (name) =>
      name === 'get_user'
        ? { sideEffecting: false, concurrencySafe: true }
        : { sideEffecting: true, concurrencySafe: false },
  );

  it('lists the JSON Schema as given', () => {
    expect(tools[0]).toMatchObject({ name: 'get_user', description: 'Fetch a user', inputSchema: schema });
    expect(tools[1]).not.toHaveProperty('description');
  });

  it('marks a read-only tool read-only and idempotent, a side-effecting one neither', () => {
    expect(tools[0]!.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(tools[1]!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });
});
