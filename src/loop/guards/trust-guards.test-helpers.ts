import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolExecution } from '../../tools/tool-execution.js';
import type { ToolHost } from '../tool-host.js';

/** A host whose tools answer fixed contents; `send_email` writes (side-effecting), the rest read. */
export function answeringHost(contents: Readonly<Record<string, string>>): ToolHost & { readonly executed: string[] } {
  const executed: string[] = [];
  const definitions: Tool[] = Object.keys(contents).map((name) => ({ name, input_schema: { type: 'object' } }));
  return {
    definitions,
    executed,
    traits: (name) =>
      name in contents ? { sideEffecting: name === 'send_email', concurrencySafe: name !== 'send_email' } : undefined,
    execute(name): ToolExecution {
      executed.push(name);
      return { kind: 'ok', content: contents[name]!, latencyMs: 10, fault: null };
    },
  };
}
