import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MetFault } from '../tools/tool-fault.js';
import type { MaybePromise } from '../tools/maybe-promise.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { World } from '../tools/world.js';
import { wireAnswer } from './socket-fault.js';

/** One run's tools as the server holds them: the same seeded host a virtual run uses, and its world. */
export interface ServedRun {
  execute(name: string, input: Record<string, unknown>): MaybePromise<ToolExecution>;
  /** Draws how a timeout shows on the wire for the `index`-th execution of `tool` (true: a slow body). */
  slowBody(tool: string, index: number): boolean;
  readonly world: World;
}

/** What the server decided for one execution, as its access log would say. */
export interface ServedCall {
  readonly tool: string;
  readonly fault: MetFault | null;
}

export interface ToolServerOptions {
  /** Builds a run's tools and world when the run opens. */
  readonly openRun: (seed: number) => ServedRun;
  /** How long a hung or stalled answer is held before the server drops it (the client should have given up long before). @default 10000 */
  readonly holdMs?: number;
}

const CALL_PATH = /^\/runs\/([\w.~-]+)\/tools\/([\w-]+)$/;
const RUN_PATH = /^\/runs\/([\w.~-]+)$/;

/**
 * A scenario's tools served over HTTP on loopback: `PUT /runs/<id>?seed=<n>` opens a run,
 * `POST /runs/<id>/tools/<name>` executes a tool with the JSON body as input, and
 * `DELETE /runs/<id>` closes the run and answers its world and call log. Each execution's
 * fault is the flaky tool's seeded decision, rendered at the socket layer (see
 * socket-fault.ts). Live mode only: real sockets and real timers.
 */
export class ToolServer {
  readonly #options: ToolServerOptions;
  readonly #server: Server;
  readonly #runs = new Map<string, { run: ServedRun; calls: ServedCall[]; executions: Map<string, number> }>();
  readonly #sockets = new Set<Socket>();
  #refusedPort = 0;

  constructor(options: ToolServerOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        if (response.headersSent) return void response.destroy();
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { code: 'handler_exception', message: `tool server: ${String(error)}` } }),
        );
      });
    });
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  /** Starts listening on 127.0.0.1; resolves to the base URL. */
  async listen(): Promise<string> {
    this.#refusedPort = await closedPort();
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () =>
        resolve(`http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`),
      );
    });
  }

  close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://tools.local');
    const run = RUN_PATH.exec(url.pathname);
    if (run !== null && request.method === 'PUT') {
      this.#runs.set(run[1]!, {
        run: this.#options.openRun(Number(url.searchParams.get('seed') ?? 0)),
        calls: [],
        executions: new Map(),
      });
      return json(response, 201, { opened: run[1] });
    }
    if (run !== null && request.method === 'DELETE') {
      const state = this.#runs.get(run[1]!);
      this.#runs.delete(run[1]!);
      return state === undefined
        ? json(response, 404, { error: { code: 'not_found', message: `no run '${run[1]}'` } })
        : json(response, 200, { world: state.run.world, calls: state.calls });
    }
    const call = CALL_PATH.exec(url.pathname);
    const state = call === null ? undefined : this.#runs.get(call[1]!);
    if (call === null || state === undefined || request.method !== 'POST') {
      return json(response, 404, {
        error: { code: 'not_found', message: `no route ${request.method} ${url.pathname} (open the run first)` },
      });
    }
    const tool = call[2]!;
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const index = state.executions.get(tool) ?? 0;
    state.executions.set(tool, index + 1);
    const answer = state.run.execute(tool, input);
    const execution = answer instanceof Promise ? await answer : answer;
    state.calls.push({ tool, fault: execution.fault });
    this.#render(request, response, wireAnswer(execution, state.run.slowBody(tool, index)));
  }

  #render(request: IncomingMessage, response: ServerResponse, answer: ReturnType<typeof wireAnswer>): void {
    switch (answer.kind) {
      case 'respond':
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
        return;
      case 'hang':
        this.#hold(request);
        return;
      case 'slow_body':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(answer.body);
        this.#hold(request);
        return;
      case 'reset':
        request.socket.resetAndDestroy();
        return;
      case 'refuse':
        // 307 keeps the method and body, so the client's fetch follows it and its connect is refused.
        response.writeHead(307, { location: `http://127.0.0.1:${this.#refusedPort}${request.url ?? '/'}` });
        response.end();
        return;
    }
  }

  /** Keeps the connection open without answering until the client gives up, or drops it after holdMs. */
  #hold(request: IncomingMessage): void {
    const timer = setTimeout(() => request.socket.destroy(), this.#options.holdMs ?? 10_000);
    timer.unref();
    request.socket.once('close', () => clearTimeout(timer));
  }
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/** A loopback port that was free a moment ago and has no listener now. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
