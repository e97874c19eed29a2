import { type FaultCounts, isDataFault, type MetFault, noFaults } from '../tools/tool-fault.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { ToolErrorCode } from '../tools/tool-error.js';
import type { ToolHost, ToolTraits } from '../loop/tool-host.js';
import type { World } from '../tools/world.js';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { callToolOverHttp } from './tool-client.js';
import type { ServedCall } from './tool-server.js';

/** One execution as the client met it. */
export interface ClientCall {
  readonly tool: string;
  /** The fault the client could tell it met (see observedFault). */
  readonly fault: MetFault | null;
  /** The class of error the client assigned, or null for a 2xx. */
  readonly code: ToolErrorCode | null;
}

/** What a closed live run leaves: the server's world and log, and the client's log. */
export interface LiveToolReport {
  readonly world: World;
  readonly served: readonly ServedCall[];
  readonly client: readonly ClientCall[];
}

/**
 * A run's tools reached over HTTP: each execution is a real request over a loopback
 * socket to the tool server, awaited (the loop awaits a tool that answers with a
 * promise). Traits and definitions are the scenario's, known to the client as an API's
 * documentation would be; the world stays on the server.
 */
export class LiveToolHost implements ToolHost {
  readonly definitions: readonly Tool[];
  readonly faults: FaultCounts = noFaults();
  /** Faults in the data arrive as good answers over the wire: the client cannot count them. */
  readonly dataFaults = null;
  readonly #traits: ReadonlyMap<string, ToolTraits>;
  /** The run on the server: `<base>/runs/<id>`. */
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #client: ClientCall[] = [];

  private constructor(url: string, timeoutMs: number, tools: LiveToolHostOptions['tools']) {
    this.definitions = tools.map((tool) => tool.definition);
    this.#traits = new Map(tools.map((tool) => [tool.definition.name, tool]));
    this.#url = url;
    this.#timeoutMs = timeoutMs;
  }

  /** Opens the run on the server (its world and seeded tools) and gives its host. */
  static async open(options: LiveToolHostOptions): Promise<LiveToolHost> {
    const host = new LiveToolHost(
      `${options.base}/runs/${encodeURIComponent(options.run)}`,
      options.timeoutMs,
      options.tools,
    );
    await request('PUT', `${host.#url}?seed=${options.seed}`);
    return host;
  }

  traits(name: string): ToolTraits | undefined {
    return this.#traits.get(name);
  }

  async execute(name: string, input: Record<string, unknown>): Promise<ToolExecution> {
    const execution = await callToolOverHttp(`${this.#url}/tools/${name}`, name, input, {
      timeoutMs: this.#timeoutMs,
    });
    // A fault in the data arrives as a good answer: the client cannot tell it, so it counts none.
    if (execution.fault !== null && !isDataFault(execution.fault)) this.faults[execution.fault] += 1;
    this.#client.push({
      tool: name,
      fault: execution.fault,
      code: execution.kind === 'error' ? execution.error.code : null,
    });
    return execution;
  }

  /** Closes the run on the server; its world is what the run is judged on. */
  async close(): Promise<LiveToolReport> {
    const { world, calls } = (await request('DELETE', this.#url)) as { world: World; calls: ServedCall[] };
    return { world, served: calls, client: this.#client };
  }
}

export interface LiveToolHostOptions {
  /** The tool server's base URL. */
  readonly base: string;
  readonly run: string;
  readonly seed: number;
  /** The client's timeout for one execution, real ms. */
  readonly timeoutMs: number;
  readonly tools: ReadonlyArray<{ readonly definition: Tool } & ToolTraits>;
}

/** A request to open or close a run: not a tool call, so any failure is the harness's and is thrown. */
async function request(method: string, url: string): Promise<unknown> {
  const response = await fetch(url, { method });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body;
}
