import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';
import { request, startServe } from './serve-helpers.js';

/** serve's own key, and a token of another service in its environment: neither may leave the process. */
const KEY = 'sk-ant-api03-LEAKCANARYKEY-0123456789abcdef';
const TOKEN = 'tok_live_LEAKCANARYTOKEN_0123456789';
const ENV = { ANTHROPIC_API_KEY: KEY, PAYMENTS_SERVICE_TOKEN: TOKEN };

function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

/** One MCP tools/call, as a client sends it. */
function callTool(mcpUrl: string, name: string, args: unknown) {
  return request(mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, 'unused');
}

describe('the process secrets an agent sends back', () => {
  it('reach no results file, OTLP file or terminal line, whichever route or command carried them', async () => {
    const dir = tempDir('spiralbench-serve-secrets-');
    const out = join(dir, 'served');
    const otel = join(dir, 'served.otlp.json');
    const serve = await startServe(['-s', 'fetch-transform-write', '-n', '1', '-o', out, '--otel', otel], dir, ENV);
    const { url } = serve.about;
    await request(`${url}/runs`, { seed: 1 }, 'unused');
    const mcp = `${url}/runs/run-1/mcp`;
    // The attack: the keys as tool arguments, which the run's events (and so its trace) keep.
    const first = await callTool(mcp, 'get_user', { user_id: KEY });
    expect(first.status).toBe(200);
    await callTool(mcp, 'get_user', { user_id: TOKEN });
    await request(`${url}/runs/run-1/end`, { outcome: 'failed', reason: `gave up holding ${KEY} and ${TOKEN}` }, 'u');
    const served = await serve.exited;
    expect(served.code, served.stderr).toBe(0);
    expect(existsSync(join(out, 'traces.jsonl'))).toBe(true);

    const replay = cli(
      ['replay', '--results', out, '--scenario', 'fetch-transform-write', '--arm', 'agent:served', '--seed', '1'],
      ENV,
    );
    expect(replay.status, replay.stderr).toBe(0);
    // The trace kept the tool call, with the argument scrubbed: the attack reached the files.
    expect(replay.stdout).toContain('[redacted]');
    // A path that prints without any results file: a flag's value echoed in an error.
    const refused = cli(['run', '-s', KEY, '-a', 'none', '-n', '1', '-o', join(dir, 'run')], ENV);
    expect(refused.status).toBe(2);

    const everything = [
      allText(dir),
      served.stdout,
      served.stderr,
      replay.stdout,
      replay.stderr,
      refused.stdout,
      refused.stderr,
    ].join('\n');
    expect(everything).not.toContain('LEAKCANARYKEY');
    expect(everything).not.toContain('LEAKCANARYTOKEN');
  });
});
