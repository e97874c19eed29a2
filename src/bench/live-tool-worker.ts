// The live tool worker's entry: the scenario's tools served over HTTP on loopback, and the
// client that calls them, in one thread apart from the loop (see live/blocking-bridge.ts).
import { workerData } from 'node:worker_threads';
import { serveBridge, type BridgeRequest, type BridgeWorkerData } from '../live/blocking-bridge.js';
import { callToolOverHttp } from '../live/tool-client.js';
import { ToolServer } from '../live/tool-server.js';
import { stream } from '../random/streams.js';
import { createWorld } from '../tools/world.js';
import { createScenarioToolHost } from './scenario-tool-host.js';
import { loadScenarioAt } from './scenario-source.js';

/** What the main thread tells the worker once. */
export interface LiveToolSetup {
  readonly scenarioPath: string;
  readonly sweepSeed: number;
  /** The client's timeout, real ms. */
  readonly timeoutMs: number;
}

const { setup } = workerData as BridgeWorkerData<LiveToolSetup>;
const scenario = loadScenarioAt(setup.scenarioPath);
const server = new ToolServer({
  // The same host a virtual run builds: the Nth execution of a tool draws from (run, `tool:<name>`, N).
  openRun(seed) {
    const key = { sweepSeed: setup.sweepSeed, scenario: scenario.id, runSeed: seed };
    const world = createWorld(scenario.world);
    const host = createScenarioToolHost(scenario, world, key);
    return {
      world,
      execute: (name, input) => host.execute(name, input),
      // Its own stream: how a timeout looks on the wire never moves a fault decision.
      slowBody: (tool, index) => stream(key, `live-wire:${tool}`, index).next() < 0.5,
    };
  },
  holdMs: Math.max(1000, setup.timeoutMs * 20),
});
const base = server.listen();

async function request(method: string, url: string): Promise<unknown> {
  const response = await fetch(url, { method });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body;
}

serveBridge(workerData as BridgeWorkerData<LiveToolSetup>, async (message: BridgeRequest) => {
  const url = `${await base}/runs/${encodeURIComponent(message.run)}`;
  switch (message.op) {
    case 'open':
      return request('PUT', `${url}?seed=${message.seed}`);
    case 'call': {
      const execution = await callToolOverHttp(`${url}/tools/${message.tool}`, message.tool, message.input, {
        timeoutMs: setup.timeoutMs,
      });
      // A ToolError does not survive structured cloning as a class; send its fields.
      return execution.kind === 'ok'
        ? execution
        : {
            ...execution,
            error: {
              code: execution.error.code,
              message: execution.error.message,
              status: execution.error.status,
              retryAfterMs: execution.error.retryAfterMs,
            },
          };
    }
    case 'close':
      return request('DELETE', url);
  }
});
