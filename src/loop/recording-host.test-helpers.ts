import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { ToolHost } from './tool-host.js';

/** A tool host for loop tests: every tool in `tools` succeeds with `{"ok":true}`; calls are recorded by name. */
export function recordingHost(tools: readonly Tool[]): ToolHost & { readonly executed: string[] } {
  const executed: string[] = [];
  const names = new Set(tools.map((tool) => tool.name));
  return {
    definitions: tools,
    executed,
    traits: (name) => (names.has(name) ? { sideEffecting: false, concurrencySafe: true } : undefined),
    execute(name): ToolExecution {
      executed.push(name);
      return { kind: 'ok', content: '{"ok":true}', latencyMs: 100, fault: null };
    },
  };
}
