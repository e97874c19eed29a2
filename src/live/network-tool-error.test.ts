import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredNow } from '../tools/answered-now.test-helpers.js';
import { NO_FAULTS, type RateFaultKind } from '../faults/fault-profile.js';
import { FlakyTool } from '../faults/flaky-tool.js';
import type { ToolError } from '../tools/tool-error.js';
import { classify } from '../loop/guards/error-classification.js';
import { stream } from '../random/streams.js';
import { TOOL_CATALOGUE } from '../scenarios/tool-catalogue.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { createWorld } from '../tools/world.js';
import { observedFault, toolErrorFromNetwork, toolErrorFromStatus } from './network-tool-error.js';

// Every error below is produced for real on loopback by Node's own fetch (undici) or
// node:http, except the two undici timeout codes, which the fetch bundled in Node does
// not let a caller configure (see the last test).

/** What a simulated tool fails with when the flaky wrapper draws `fault` (a rate of 1). */
function simulated(fault: RateFaultKind): ToolError {
  const spec = TOOL_CATALOGUE.get('get_user') as ToolSpec;
  const tool = new FlakyTool(spec, { ...NO_FAULTS, rates: { [fault]: 1 } });
  const world = createWorld({ records: { users: { u_1042: { id: 'u_1042', name: 'Ada', email: 'a@b.c' } } } });
  const execution = answeredNow(
    tool.execute({ user_id: 'u_1042' }, world, stream({ sweepSeed: 0, scenario: 't', runSeed: 1 }, 'tool:get_user', 0)),
  );
  if (execution.kind !== 'error') throw new Error(`${fault} did not fail`);
  return execution.error;
}

const TIMEOUT_MS = 150;
let server: Server;
let base = '';
let closedPort = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      switch (request.url) {
        case '/reset':
          return void request.socket.resetAndDestroy();
        case '/drop':
          return void request.socket.destroy();
        case '/slow-body':
          response.writeHead(200, { 'content-type': 'application/json' });
          return void response.write('{"id": "u_1');
        case '/429':
          response.writeHead(429, { 'retry-after': '2' });
          return void response.end('{"error": {"message": "Too Many Requests"}}');
        case '/503':
          response.writeHead(503);
          return void response.end('<html>Service Unavailable</html>');
        case '/cut':
          response.writeHead(200, { 'content-type': 'application/json' });
          return void response.end('{"id": "u_1042", "na');
        default:
          return; // never answers
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The error a real fetch of `path` ends in (reading the body too). */
async function fetchError(url: string, signal: AbortSignal = AbortSignal.timeout(TIMEOUT_MS)): Promise<unknown> {
  try {
    const response = await fetch(url, { method: 'POST', body: '{}', signal });
    await response.text();
  } catch (error) {
    return error;
  }
  throw new Error(`${url} did not fail`);
}

describe('toolErrorFromNetwork: real network errors get the class the simulated fault has', () => {
  it('a server that never answers: AbortSignal.timeout fires (TimeoutError) → timeout, transient, as a simulated timeout', async () => {
    const error = await fetchError(`${base}/hang`);
    expect((error as Error).name).toBe('TimeoutError');
    const live = toolErrorFromNetwork('get_user', error, TIMEOUT_MS);
    expect(live.code).toBe(simulated('timeout').code);
    expect(classify(live)).toBe('transient');
    expect(live.message).toContain('timed out after 150 ms');
  });

  it('a body that stalls after the headers: the timeout fires mid-body → timeout', async () => {
    const error = await fetchError(`${base}/slow-body`);
    expect((error as Error).name).toBe('TimeoutError');
    expect(toolErrorFromNetwork('get_user', error, TIMEOUT_MS).code).toBe('timeout');
  });

  it("a caller's abort (AbortError) → timeout: the client gave up waiting", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await fetchError(`${base}/hang`, controller.signal);
    expect((error as Error).name).toBe('AbortError');
    expect(toolErrorFromNetwork('get_user', error, TIMEOUT_MS).code).toBe('timeout');
  });

  it('nobody listening: ECONNREFUSED in the cause → connection_refused, as simulated', async () => {
    const error = await fetchError(`http://127.0.0.1:${closedPort}/`);
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
    const live = toolErrorFromNetwork('get_user', error, TIMEOUT_MS);
    expect(live.code).toBe(simulated('connection_refused').code);
    expect(classify(live)).toBe('transient');
  });

  it('a TCP reset after the request: ECONNRESET → connection_reset, the class of a simulated partial write', async () => {
    const error = await fetchError(`${base}/reset`);
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNRESET');
    const live = toolErrorFromNetwork('write_result', error, TIMEOUT_MS);
    expect(live.code).toBe(simulated('partial_write').code);
    expect(classify(live)).toBe('transient');
  });

  it('a connection closed without an answer: undici UND_ERR_SOCKET → connection_reset', async () => {
    const error = await fetchError(`${base}/drop`);
    expect(((error as Error).cause as { code?: string }).code).toBe('UND_ERR_SOCKET');
    expect(toolErrorFromNetwork('get_user', error, TIMEOUT_MS).code).toBe('connection_reset');
  });

  it("node:http's own 'socket hang up' (ECONNRESET on the error itself) → connection_reset", async () => {
    const error = await new Promise<unknown>((resolve) => {
      const request = httpRequest(`${base}/drop`, { method: 'POST' }, () => resolve(new Error('answered')));
      request.on('error', resolve);
      request.end('{}');
    });
    expect((error as { code?: string }).code).toBe('ECONNRESET');
    expect(toolErrorFromNetwork('get_user', error, TIMEOUT_MS).code).toBe('connection_reset');
  });

  it('the undici timeout codes map to timeout (constructed: Node’s bundled fetch does not expose headersTimeout/bodyTimeout)', () => {
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']) {
      const error = new TypeError('fetch failed', { cause: Object.assign(new Error('timeout'), { code }) });
      expect(toolErrorFromNetwork('get_user', error, TIMEOUT_MS).code).toBe('timeout');
    }
  });

  it('an error that is not the network is a handler exception (permanent), not a guess at a transient class', () => {
    const live = toolErrorFromNetwork('get_user', new RangeError('bad input'), TIMEOUT_MS);
    expect(live.code).toBe('handler_exception');
    expect(classify(live)).toBe('permanent');
  });
});

describe('toolErrorFromStatus: HTTP answers get the class the simulated fault has', () => {
  it('429 with Retry-After: rate_limited, its wait read from the header, as simulated', async () => {
    const response = await fetch(`${base}/429`, { method: 'POST', body: '{}' });
    const live = toolErrorFromStatus('get_user', response.status, response.headers, await response.text());
    const virtual = simulated('rate_limit');
    expect(live.code).toBe(virtual.code);
    expect(live.retryAfterMs).toBe(2000);
    expect(classify(live)).toBe(classify(virtual));
  });

  it('503 with a non-JSON body: server_error, transient', async () => {
    const response = await fetch(`${base}/503`, { method: 'POST', body: '{}' });
    const live = toolErrorFromStatus('get_user', response.status, response.headers, await response.text());
    expect(live.code).toBe(simulated('server_error').code);
    expect(live.status).toBe(503);
    expect(classify(live)).toBe('transient');
  });

  it('an application error body keeps its own code (404 not_found, permanent)', () => {
    const live = toolErrorFromStatus(
      'get_user',
      404,
      new Headers(),
      JSON.stringify({ error: { code: 'not_found', message: "no user 'u_9'" } }),
    );
    expect(live.code).toBe('not_found');
    expect(live.message).toBe("no user 'u_9'");
    expect(classify(live)).toBe('permanent');
  });

  it('a 2xx body cut short does not parse: observed as malformed_json, as the flaky tool decided it', async () => {
    const response = await fetch(`${base}/cut`, { method: 'POST', body: '{}' });
    const content = await response.text();
    expect(response.status).toBe(200);
    expect(observedFault({ kind: 'ok', content, latencyMs: 0, fault: null })).toBe('malformed_json');
    expect(observedFault({ kind: 'ok', content: '{"id": "u_1042"}', latencyMs: 0, fault: null })).toBeNull();
  });
});
