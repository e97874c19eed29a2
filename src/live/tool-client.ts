import type { ToolExecution } from '../tools/tool-execution.js';
import { observedFault, toolErrorFromNetwork, toolErrorFromStatus } from './network-tool-error.js';

export interface ToolCallOptions {
  /** The client's timeout for the whole exchange (headers and body), in real ms. */
  readonly timeoutMs: number;
}

/**
 * One tool execution over HTTP with Node's own fetch (undici): the request, the client
 * timeout, and every way it can fail, turned into the same ToolExecution a simulated tool
 * returns. The fault is what the client observed, never what the server decided.
 */
export async function callToolOverHttp(
  url: string,
  tool: string,
  input: Record<string, unknown>,
  { timeoutMs }: ToolCallOptions,
): Promise<ToolExecution> {
  let execution: ToolExecution;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    execution = response.ok
      ? { kind: 'ok', content: body, latencyMs: 0, fault: null }
      : {
          kind: 'error',
          error: toolErrorFromStatus(tool, response.status, response.headers, body),
          latencyMs: 0,
          fault: null,
        };
  } catch (error) {
    execution = { kind: 'error', error: toolErrorFromNetwork(tool, error, timeoutMs), latencyMs: 0, fault: null };
  }
  // latencyMs stays 0: the time already passed on the real clock.
  return { ...execution, fault: observedFault(execution) };
}
