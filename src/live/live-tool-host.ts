import type { FaultKind } from '../tools/tool-fault.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ToolError, type ToolErrorCode } from '../tools/tool-error.js';
import type { ToolHost, ToolTraits } from '../loop/tool-host.js';
import type { World } from '../tools/world.js';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { BlockingBridge } from './blocking-bridge.js';
import type { ServedCall } from './tool-server.js';

/** One execution as the client met it. */
export interface ClientCall {
  readonly tool: string;
  /** The fault the client could tell it met (see observedFault). */
  readonly fault: FaultKind | null;
  /** The class of error the client assigned, or null for a 2xx. */
  readonly code: ToolErrorCode | null;
}

/** What a closed live run leaves: the server's world and log, and the client's log. */
export interface LiveToolReport {
  readonly world: World;
  readonly served: readonly ServedCall[];
  readonly client: readonly ClientCall[];
}

interface WireExecution {
  readonly kind: 'ok' | 'error';
  readonly content?: string;
  readonly error?: { code: ToolErrorCode; message: string; status?: number; retryAfterMs?: number };
  readonly fault: FaultKind | null;
}

/**
 * A run's tools reached over HTTP: each execution goes through the bridge to the tool
 * server, over a real loopback socket. Traits and definitions are the scenario's, known
 * to the client as an API's documentation would be; the world stays on the server.
 */
export class LiveToolHost implements ToolHost {
  readonly definitions: readonly Tool[];
  readonly faults: Partial<Record<FaultKind, number>> = {};
  readonly #traits: ReadonlyMap<string, ToolTraits>;
  readonly #bridge: BlockingBridge<unknown>;
  readonly #run: string;
  readonly #client: ClientCall[] = [];

  constructor(options: {
    readonly bridge: BlockingBridge<unknown>;
    readonly run: string;
    readonly seed: number;
    readonly tools: ReadonlyArray<{ readonly definition: Tool } & ToolTraits>;
  }) {
    this.definitions = options.tools.map((tool) => tool.definition);
    this.#traits = new Map(options.tools.map((tool) => [tool.definition.name, tool]));
    this.#bridge = options.bridge;
    this.#run = options.run;
    this.#bridge.call({ op: 'open', run: this.#run, seed: options.seed });
  }

  traits(name: string): ToolTraits | undefined {
    return this.#traits.get(name);
  }

  execute(name: string, input: Record<string, unknown>): ToolExecution {
    const wire = this.#bridge.call({ op: 'call', run: this.#run, tool: name, input }) as WireExecution;
    const execution: ToolExecution =
      wire.kind === 'ok'
        ? { kind: 'ok', content: wire.content ?? '', latencyMs: 0, fault: wire.fault }
        : { kind: 'error', error: rebuild(wire.error!), latencyMs: 0, fault: wire.fault };
    if (execution.fault !== null) this.faults[execution.fault] = (this.faults[execution.fault] ?? 0) + 1;
    this.#client.push({
      tool: name,
      fault: execution.fault,
      code: execution.kind === 'error' ? execution.error.code : null,
    });
    return execution;
  }

  /** Closes the run on the server; its world is what the run is judged on. */
  close(): LiveToolReport {
    const { world, calls } = this.#bridge.call({ op: 'close', run: this.#run }) as {
      world: World;
      calls: ServedCall[];
    };
    return { world, served: calls, client: this.#client };
  }
}

function rebuild(error: NonNullable<WireExecution['error']>): ToolError {
  return new ToolError(error.code, error.message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  });
}
