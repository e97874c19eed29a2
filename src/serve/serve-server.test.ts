import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveScenarioSource } from '../sweep/scenario-source.js';
import { fillingDisk } from '../results/full-disk.test-helpers.js';
import { claimResultsFolder } from '../results/results-folder.js';
import { readProgress } from '../results/results-reader.js';
import { ServedResults } from './served-results.js';
import { ServedSweep, servedSweepIdentity } from './served-sweep.js';
import { ServeServer } from './serve-server.js';

const KEY = 'sk-ant-api03-UNITFAKEKEY';
const source = resolveScenarioSource('fetch-transform-write');
let server: ServeServer | undefined;

async function serving(options: Omit<ConstructorParameters<typeof ServeServer>[0], 'sweep'> = {}): Promise<string> {
  server = new ServeServer({
    sweep: new ServedSweep({ source, arm: 'agent:unit', seeds: { base: 1, count: 5 }, sweepSeed: 0 }),
    ...options,
  });
  return server.listen();
}

/** A raw request with the headers given as they are (fetch will not send a foreign Host), and what came back. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; sendBody?: boolean } = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    // Without sendBody: false the request is finished; with it, the body announced never comes.
    if (options.sendBody !== false) req.end();
    else req.flushHeaders();
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

async function post(url: string, body: unknown): Promise<{ status: number; text: string; headers: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), headers: JSON.stringify([...response.headers]) };
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ServeServer', () => {
  it('serves a run its URLs, its model and its tools, and never echoes a key', async () => {
    const base = await serving();
    const started = await post(`${base}/runs`, { seed: 1 });
    expect(started.status).toBe(201);
    const run = JSON.parse(started.text) as Record<string, string>;
    expect(run).toMatchObject({
      run_id: 'run-1',
      anthropic_base_url: `${base}/runs/run-1`,
      openai_base_url: `${base}/runs/run-1/v1`,
    });
    const reply = await post(`${run.anthropic_base_url}/v1/messages`, {
      model: run.model,
      max_tokens: 1024,
      messages: [{ role: 'user', content: run.prompt }],
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ type: 'message', role: 'assistant' });
    const chat = await post(`${run.openai_base_url}/chat/completions`, {
      model: run.model,
      messages: [{ role: 'user', content: run.prompt }],
    });
    expect(JSON.parse(chat.text)).toHaveProperty('choices');
    for (const answer of [started, reply, chat]) expect(answer.text + answer.headers).not.toContain('UNITFAKEKEY');
  });

  it('gives the MCP client a seeded timeout as JSON-RPC error -32001 with the fault message', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/runs/run-1/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_user');
      // Seed 1's first get_user meets a timeout (fetch-transform-write's 30% rate).
      const failure = await client.callTool({ name: 'get_user', arguments: { user_id: 'u_1042' } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(McpError);
      expect(failure).toMatchObject({
        code: ErrorCode.RequestTimeout,
        message: 'MCP error -32001: get_user: request timed out after 10000 ms',
      });
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    } finally {
      await client.close();
    }
  });

  it('answers routes it does not have, and runs it does not know, with JSON saying what to do', async () => {
    const base = await serving();
    const nowhere = await post(`${base}/nowhere`, {});
    expect(nowhere.status).toBe(404);
    expect(JSON.parse(nowhere.text).error.message).toContain('GET /');
    const unknown = await post(`${base}/runs/run-4/v1/messages`, {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).error.message).toContain('POST /runs');
    const about = await (await fetch(base)).json();
    expect(about).toMatchObject({ mcp_url: `${base}/runs/{run_id}/mcp`, seeds: { first: 1, count: 5 } });
  });

  it('says a negative seed is outside the sweep, and what a seed too large to hold came to', async () => {
    const base = await serving();
    const negative = await post(`${base}/runs`, { seed: -1 });
    expect(negative.status).toBe(400);
    expect(JSON.parse(negative.text).error.type).toBe('seed_out_of_range');
    const huge = await fetch(`${base}/runs`, { method: 'POST', headers: JSON_TYPE, body: '{"seed":1e400}' });
    expect(((await huge.json()) as { error: { message: string } }).error.message).toBe(
      'seed: expected a whole number, got Infinity',
    );
  });

  it('names an unknown tool once, without the "MCP error" prefix a client adds itself', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    const response = await fetch(`${base}/runs/run-1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope', arguments: {} } }),
    });
    const { error } = (await response.json()) as { error: { code: number; message: string } };
    expect(error).toEqual({ code: -32602, message: "unknown tool 'nope'; tools/list names this run's tools" });
  });

  it('answers a run id that is not valid percent-encoding as an unknown run (404), not a server error', async () => {
    const base = await serving();
    const malformed = await post(`${base}/runs/%E0%A4%A/end`, {});
    expect(malformed.status).toBe(404);
    expect(JSON.parse(malformed.text).error).toMatchObject({ type: 'unknown_run' });
  });
});

describe('ServeServer and streaming', () => {
  it('refuses a streamed model request with a 400 saying so, before the run meets a fault', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    const answer = await post(`${base}/runs/run-1/v1/messages`, {
      model: 'm',
      max_tokens: 10,
      stream: true,
      messages: [],
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error.message).toMatch(/^stream: /);
  });
});

describe('ServeServer and web pages', () => {
  it('refuses a foreign Host (DNS rebinding) with 403 before doing anything, as the issue sent it', async () => {
    const base = await serving();
    const { port } = new URL(base);
    const answer = await raw(`${base}/runs`, {
      headers: { 'content-type': 'text/plain', host: `evil.example:${port}` },
      body: '{"seed":1}',
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text).error).toMatchObject({ type: 'forbidden_host' });
    expect(JSON.parse(answer.text).error.message).toMatch(/^Host 'evil\.example:\d+' is not .*--allow-host/);
    expect((await (await fetch(base)).json()).in_flight).toEqual([]);
  });

  it("answers loopback Host names with serve's port, and the host it was told to listen on", async () => {
    const base = await serving({ allowHosts: ['agents.internal'] });
    const { port } = new URL(base);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `agents.internal:${port}`])
      expect((await raw(base, { method: 'GET', headers: { host } })).status, host).toBe(200);
    for (const host of ['localhost:1', 'localhost', 'localhost.evil.example', '127.0.0.2'])
      expect((await raw(base, { method: 'GET', headers: { host } })).status, host).toBe(403);
  });

  it('refuses a request a browser sent (an Origin header) with 403, unless --allow-origin names it', async () => {
    const base = await serving({ allowOrigins: ['http://localhost:3000'] });
    const evil = await raw(`${base}/runs`, { headers: { ...JSON_TYPE, origin: 'https://evil.example' }, body: '{}' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.text).error).toMatchObject({ type: 'forbidden_origin' });
    expect(JSON.parse(evil.text).error.message).toContain('--allow-origin https://evil.example');
    const nullOrigin = await raw(base, { method: 'GET', headers: { origin: 'null' } });
    expect(nullOrigin.status).toBe(403);
    const allowed = await raw(`${base}/runs`, {
      headers: { ...JSON_TYPE, origin: 'http://localhost:3000' },
      body: '{"seed":2}',
    });
    expect(allowed.status).toBe(201);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const preflight = await raw(`${base}/runs`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('content-type');
  });

  it('refuses a POST whose body is not sent as application/json with 415, on every route', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    for (const path of ['/runs', '/runs/run-1/v1/messages', '/runs/run-1/mcp', '/runs/run-1/end']) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
        const answer = await raw(`${base}${path}`, {
          headers: type === undefined ? {} : { 'content-type': type },
          body: '{}',
        });
        expect(answer.status, `${path} ${type}`).toBe(415);
        expect(JSON.parse(answer.text).error.message).toMatch(/application\/json/);
      }
    }
    const charset = await raw(`${base}/runs`, {
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: '{}',
    });
    expect(charset.status).toBe(201);
  });
});

describe('ServeServer and request bodies', () => {
  it('answers an unknown run 404 without waiting for the body it announced', async () => {
    const base = await serving();
    const answer = await raw(`${base}/runs/run-4/end`, {
      headers: { ...JSON_TYPE, 'content-length': String(30 * 1024 * 1024) },
      sendBody: false,
    });
    expect(answer.status).toBe(404);
  });

  it('refuses a body announced over the cap with 413 before reading it', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    const answer = await raw(`${base}/runs/run-1/v1/messages`, {
      headers: { ...JSON_TYPE, 'content-length': String(64 * 1024 * 1024) },
      sendBody: false,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.type).toBe('request_too_large');
  });
});

describe('ServeServer and a crowd of agents', () => {
  it("tells clients it keeps idle connections a minute, far past the SDKs' own idle timeouts", async () => {
    const base = await serving();
    const answer = await raw(base, { method: 'GET' });
    const timeout = Number(/timeout=(\d+)/.exec(String(answer.headers['keep-alive']))?.[1]);
    // Node's default is 5 s: an agent's pooled connection idle that long was reset under its next request.
    expect(timeout).toBeGreaterThanOrEqual(60);
  });

  it('answers an ending sent again (its answer lost to a reset) with the same record, recorded once', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    const ending = { outcome: 'failed', reason: 'gave up' };
    const first = await post(`${base}/runs/run-1/end`, ending);
    const again = await post(`${base}/runs/run-1/end`, ending);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    const other = await post(`${base}/runs/run-1/end`, { outcome: 'completed' });
    expect(other.status).toBe(409);
    expect((await (await fetch(base)).json()).ended).toBe(1);
  });

  it('closes at once when the last run ends on a kept-alive connection, its answer still being written', async () => {
    let closed: Promise<void> | undefined;
    const sweep = new ServedSweep({
      source,
      arm: 'agent:unit',
      seeds: { base: 1, count: 1 },
      sweepSeed: 0,
      // As serve does: the last run ended, the sweep finishes and closes the server before the answer is sent.
      onEnded: () => {
        closed = server!.close();
      },
    });
    server = new ServeServer({ sweep });
    const base = await server.listen();
    const agent = new Agent({ keepAlive: true });
    const send = (path: string, body: unknown) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${base}${path}`, { method: 'POST', agent, headers: JSON_TYPE }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
    try {
      expect(await send('/runs', { seed: 1 })).toBe(201);
      expect(await send('/runs/run-1/end', { outcome: 'completed' })).toBe(200);
      // Without closing the connection once its answer is sent, this waits out the 65 s keep-alive.
      await closed;
      server = undefined;
    } finally {
      agent.destroy();
    }
    // Not a speed bound: the test takes well under a second; the broken close takes the 65 s keep-alive.
  }, 20_000);
});

describe('ServeServer and malformed MCP calls', () => {
  it('answers tools/call with array arguments as invalid params (-32602) in one sentence', async () => {
    const base = await serving();
    await post(`${base}/runs`, { seed: 1 });
    const response = await fetch(`${base}/runs/run-1/mcp`, {
      method: 'POST',
      headers: { ...JSON_TYPE, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_user', arguments: [1] },
      }),
    });
    const answer = (await response.json()) as { id: number; error: { code: number; message: string } };
    expect(answer.id).toBe(7);
    expect(answer.error).toEqual({
      code: -32602,
      message: "tools/call: arguments must be a JSON object of the tool's parameters, got an array",
    });
  });
});

describe('ServeServer on a full disk', () => {
  it('answers an /end it could not store with 507 and keeps the run open: the same /end sent again stores the record', async () => {
    const disk = fillingDisk(0);
    const dir = join(mkdtempSync(join(tmpdir(), 'spiralbench-serve-full-')), 'out');
    const options = { source, arm: 'agent:unit', seeds: { base: 1, count: 5 }, sweepSeed: 0 };
    const results = new ServedResults(
      claimResultsFolder(dir, 'sweep', { note: () => {}, fs: disk.fs }),
      servedSweepIdentity(options),
    );
    server = new ServeServer({ sweep: new ServedSweep({ ...options, results }) });
    try {
      const base = await server.listen();
      await post(`${base}/runs`, { seed: 1 });
      const full = await post(`${base}/runs/run-1/end`, { outcome: 'completed', final_text: 'done' });
      expect(full.status).toBe(507);
      expect(JSON.parse(full.text).error).toMatchObject({
        type: 'insufficient_storage',
        message: expect.stringContaining('POST /runs/run-1/end again'),
      });
      disk.setRoom(1_000_000);
      const again = await post(`${base}/runs/run-1/end`, { outcome: 'completed', final_text: 'done' });
      expect(again.status, again.text).toBe(200);
      expect(JSON.parse(again.text)).toMatchObject({ seed: 1 });
      expect(readProgress(dir)).toMatchObject({ runs_done: 1 });
      expect((await post(`${base}/runs/run-1/end`, {})).status).toBe(409);
    } finally {
      results.release();
    }
  });
});
