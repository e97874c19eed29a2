import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveScenarioSource } from '../bench/scenario-source.js';
import { fillingDisk } from '../results/full-disk.test-helpers.js';
import { claimResultsFolder } from '../results/results-folder.js';
import { readProgress } from '../results/results-reader.js';
import { ServedResults } from './served-results.js';
import { ServedSweep, servedSweepIdentity } from './served-sweep.js';
import { ServeServer } from './serve-server.js';

const KEY = 'sk-ant-api03-UNITFAKEKEY';
const source = resolveScenarioSource('fetch-transform-write');
let server: ServeServer | undefined;

async function serving(): Promise<string> {
  server = new ServeServer({
    sweep: new ServedSweep({ source, arm: 'agent:unit', seeds: { base: 1, count: 5 }, sweepSeed: 0 }),
  });
  return server.listen();
}

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
    const huge = await fetch(`${base}/runs`, { method: 'POST', body: '{"seed":1e400}' });
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
