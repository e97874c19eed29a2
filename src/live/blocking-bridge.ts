import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** A request to the thread that serves and calls the tools. */
export type BridgeRequest =
  | { readonly op: 'open'; readonly run: string; readonly seed: number }
  | { readonly op: 'call'; readonly run: string; readonly tool: string; readonly input: Record<string, unknown> }
  | { readonly op: 'close'; readonly run: string };

export type BridgeReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

/** What the worker entry receives: where to answer, and the flag to raise when it has. */
export interface BridgeWorkerData<Setup> {
  readonly port: MessagePort;
  readonly flag: SharedArrayBuffer;
  readonly setup: Setup;
}

interface BootData {
  readonly entry: string;
  /** tsx's ESM loader API, to register first when the entry is TypeScript. */
  readonly tsx: string | null;
}

const BOOT_FAILED = 'failed to start: ';

/** tsx's ESM loader API (the package's `import` export: its CommonJS twin cannot register ESM hooks here). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const exports = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports;
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/**
 * The worker's first code: load the entry, or, if it cannot load, answer the first call
 * with why (the waiting thread is blocked and would not see an 'error' event).
 */
const BOOT = `
const { workerData } = require('node:worker_threads');
(async () => {
  try {
    if (workerData.tsx !== null) (await import(workerData.tsx)).register();
    await import(workerData.entry);
  } catch (error) {
    workerData.port.postMessage({ ok: false, message: ${JSON.stringify(BOOT_FAILED)} + String((error && error.stack) || error) });
    const flag = new Int32Array(workerData.flag);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
})();
`;

/**
 * A synchronous call into a worker thread. The loop's tool port is synchronous (a tool
 * execution is a value, virtual time needs no awaiting), so a live tool call blocks this
 * thread with Atomics.wait while the worker does the real HTTP exchange, then reads the
 * reply with receiveMessageOnPort. The server runs in that worker too: this thread cannot
 * answer sockets while it waits.
 */
export class BlockingBridge<Setup> {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #flag: Int32Array;
  readonly #waitMs: number;
  /** Set when the worker failed to start: later calls fail at once instead of waiting. */
  #dead: string | null = null;

  /** `waitMs`: how long one call may take before the worker is presumed dead. */
  constructor(entry: URL, setup: Setup, waitMs: number) {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    // Under vitest the sources are TypeScript: the worker then registers tsx before loading them.
    const tsx = entry.pathname.endsWith('.ts') ? tsxEsmApi() : null;
    const data: BridgeWorkerData<Setup> & BootData = { port: port2, flag, setup, entry: entry.href, tsx };
    this.#worker = new Worker(BOOT, { eval: true, workerData: data, transferList: [port2] });
    this.#worker.unref();
    this.#port = port1;
    this.#flag = new Int32Array(flag);
    this.#waitMs = waitMs;
  }

  call(request: BridgeRequest): unknown {
    if (this.#dead !== null) throw new Error(`live tool worker: ${this.#dead}`);
    Atomics.store(this.#flag, 0, 0);
    this.#port.postMessage(request);
    const deadline = performance.now() + this.#waitMs;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`live tool worker did not answer '${request.op}' within ${this.#waitMs} ms`);
      Atomics.wait(this.#flag, 0, 0, left);
      const message = receiveMessageOnPort(this.#port);
      if (message === undefined) continue;
      const reply = message.message as BridgeReply;
      if (!reply.ok) {
        if (reply.message.startsWith(BOOT_FAILED)) this.#dead = reply.message;
        throw new Error(`live tool worker: ${reply.message}`);
      }
      return reply.value;
    }
  }

  async close(): Promise<void> {
    this.#port.close();
    await this.#worker.terminate();
  }
}

/** The worker side: answers each request in turn with `handle`, then wakes the waiting thread. */
export function serveBridge<Setup>(
  data: BridgeWorkerData<Setup>,
  handle: (request: BridgeRequest) => Promise<unknown>,
): void {
  const flag = new Int32Array(data.flag);
  data.port.on('message', (request: BridgeRequest) => {
    handle(request).then(
      (value) => reply(data.port, flag, { ok: true, value }),
      (error: unknown) =>
        reply(data.port, flag, { ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  });
}

function reply(port: MessagePort, flag: Int32Array, message: BridgeReply): void {
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
