import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveScenarioSource } from '../sweep/scenario-source.js';
import { ServedSweep } from './served-sweep.js';
import { ServeServer } from './serve-server.js';

/** How many of the SDK's MCP servers were built: each brings its own schema validator and handler tables. */
const built = vi.hoisted(() => ({ servers: 0 }));
vi.mock('@modelcontextprotocol/sdk/server/index.js', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('@modelcontextprotocol/sdk/server/index.js')>();
  class CountedServer extends sdk.Server {
    constructor(...args: ConstructorParameters<typeof sdk.Server>) {
      super(...args);
      built.servers += 1;
    }
  }
  return { ...sdk, Server: CountedServer };
});

const source = resolveScenarioSource('fetch-transform-write');
let server: ServeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serving(): Promise<string> {
  server = new ServeServer({
    sweep: new ServedSweep({ source, arm: 'agent:unit', seeds: { base: 1, count: 5 }, sweepSeed: 0 }),
  });
  return server.listen();
}

function mcpCall(base: string, run: string, body: unknown): Promise<unknown> {
  return fetch(`${base}/runs/${run}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  }).then((response) => response.json());
}

describe('McpSweepServer', () => {
  it("builds one MCP server for the sweep, not one per request or per run, and each run's client still needs no session", async () => {
    const base = await serving();
    const before = built.servers;
    for (const seed of [1, 2]) {
      const started = await fetch(`${base}/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed }),
      });
      const { mcp_url: url } = (await started.json()) as { mcp_url: string };
      const client = new Client({ name: 'unit', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_user');
      for (let call = 0; call < 3; call++)
        await client.callTool({ name: 'read_result', arguments: { key: 'u_1042' } }).catch(() => undefined);
      await client.close();
    }
    // Two runs, each: initialize, initialized, list and three calls, all through the one server built with serve.
    expect(built.servers - before).toBe(0);
  });

  it("answers two runs' requests under the same JSON-RPC id at once, each with its own run's tools", async () => {
    const base = await serving();
    for (const seed of [1, 2])
      await fetch(`${base}/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed }),
      });
    const call = (name: string, args: object) => ({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const [first, second] = await Promise.all([
      mcpCall(base, 'run-1', call('write_result', { key: 'u_1042', value: { run: 1 } })),
      mcpCall(base, 'run-2', call('read_result', { key: 'u_1042' })),
    ]);
    expect(first).toMatchObject({ jsonrpc: '2.0', id: 7 });
    expect(second).toMatchObject({ jsonrpc: '2.0', id: 7 });
    // run-2's outbox never saw run-1's write: the answer went to the run its URL named.
    expect(JSON.stringify(second)).not.toContain('"run":1');
  });
});
