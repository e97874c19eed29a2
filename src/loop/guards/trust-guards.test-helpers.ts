import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolExecution } from '../../tools/tool-execution.js';
import type { ToolHost } from '../tool-host.js';

const WRITES = new Set(['send_email', 'write_result']);

/** A host whose tools answer fixed contents; `send_email` and `write_result` write (side-effecting), the rest read. */
export function answeringHost(contents: Readonly<Record<string, string>>): ToolHost & { readonly executed: string[] } {
  const executed: string[] = [];
  const definitions: Tool[] = Object.keys(contents).map((name) => ({ name, input_schema: { type: 'object' } }));
  return {
    definitions,
    executed,
    traits: (name) =>
      name in contents ? { sideEffecting: WRITES.has(name), concurrencySafe: !WRITES.has(name) } : undefined,
    execute(name): ToolExecution {
      executed.push(name);
      return { kind: 'ok', content: contents[name]!, latencyMs: 10, fault: null };
    },
  };
}
