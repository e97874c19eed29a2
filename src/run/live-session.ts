import { VirtualClock } from '../clock/virtual-clock.js';
import { MODEL_FAULT_KINDS, type ModelFaultKind } from '../faults/model-faults.js';
import { LiveClock } from '../live/live-clock.js';
import { LiveToolHost, type LiveToolReport } from '../live/live-tool-host.js';
import { ModelServer } from '../live/model-server.js';
import type { ModelClient } from '../model/model-client.js';
import type { Scenario } from '../scenarios/loader.js';
import type { World } from '../tools/world.js';
import type { LiveRecord } from '../results/run-record-schema.js';
import type { ToolServer } from '../live/tool-server.js';
import { scenarioToolServer } from './scenario-tool-server.js';

export interface LiveOptions {
  /** The client's timeout for one tool call, in real ms; sets the time scale (see LiveClock). @default 200 */
  readonly timeoutMs?: number;
  /** A running `spiralbench serve-model --faults` for the scenario (its base URL); by default one is started in-process on loopback. */
  readonly modelUrl?: string;
  /** @default 0 */
  readonly sweepSeed?: number;
}

/** How a live sweep ran, written beside its results: live runs are not byte-reproducible. */
export interface LiveLabel {
  readonly mode: 'live';
  readonly note: string;
  readonly timeout_ms: number;
  readonly time_scale: Readonly<Record<string, number>>;
  readonly model_url: string | null;
}

/** One live run's parts, and how to end it. */
export interface LiveRun {
  readonly tools: LiveToolHost;
  readonly clock: LiveClock;
  readonly model: ModelClient;
  finish(): Promise<LiveRunEnd>;
}

/** What a live run left: the tool server's world, both sides' tool logs, the model faults served, the record's `live`. */
export interface LiveRunEnd {
  readonly world: World;
  readonly tools: LiveToolReport;
  readonly modelFaults: Record<ModelFaultKind, number> | null;
  readonly record: LiveRecord;
}

export const LIVE_NOTE = 'live: real HTTP on 127.0.0.1, real time (waits scaled); results are not byte-reproducible';

interface ScenarioParts {
  readonly tools: ToolServer;
  readonly toolBase: string;
  readonly modelBase: string;
  readonly server: ModelServer | undefined;
}

/**
 * The live infrastructure of a sweep, per scenario: the tools served over HTTP and the
 * simulated model served over HTTP, both on loopback in this thread. Start it once, take
 * a LiveRun per run, close it at the end.
 *
 * The servers share this thread with the loop, which awaits every request it makes (a
 * live tool answers with a promise): while a request is out the thread is free to serve
 * it, and the run's blocking waits (LiveClock.sleep) fall between requests, never during
 * one. Served here, a scenario's tools are the scenario's own objects (a user's tool runs
 * as written, nothing is loaded twice), every byte still crosses a real socket, and the
 * world the run is judged on is the one the server's tools wrote.
 */
export class LiveSession {
  readonly timeoutMs: number;
  readonly #options: LiveOptions;
  readonly #scenarios = new Map<string, Promise<ScenarioParts>>();
  readonly #scales = new Map<string, number>();
  #runs = 0;

  constructor(options: LiveOptions = {}) {
    this.#options = options;
    this.timeoutMs = options.timeoutMs ?? 200;
  }

  label(): LiveLabel {
    return {
      mode: 'live',
      note: LIVE_NOTE,
      timeout_ms: this.timeoutMs,
      time_scale: Object.fromEntries(this.#scales),
      model_url: this.#options.modelUrl ?? null,
    };
  }

  /** The scale a scenario's time runs at: its tool timeout becomes the client's real timeout. */
  scaleFor(scenario: Scenario): number {
    return this.timeoutMs / scenario.faults.timeoutMs;
  }

  /** The SDK's timeout for a scenario's model calls, real ms: its model timeout at the scale, at least 4× the tool timeout. */
  modelTimeoutMs(scenario: Scenario): number {
    return Math.max(4 * this.timeoutMs, Math.round(scenario.modelFaults.timeoutMs * this.scaleFor(scenario)));
  }

  /** One live run of `scenario`: its tools are served from `scenario` itself, a user's tools module included. */
  async run(scenario: Scenario, arm: string, seed: number): Promise<LiveRun> {
    const parts = await this.#parts(scenario);
    const scale = this.scaleFor(scenario);
    this.#scales.set(scenario.id, scale);
    // Every run its own tag: fault state on both servers starts afresh, as in-process.
    const tag = `${arm.replace(/[^\w.-]/g, '_')}.${(this.#runs += 1)}`;
    // Opening the run, and loading the SDK on the first run, both happen before the run's clock starts.
    const tools = await LiveToolHost.open({
      base: parts.toolBase,
      run: `${seed}~${tag}`,
      seed,
      timeoutMs: this.timeoutMs,
      tools: scenario.tools,
    });
    const runUrl = `${parts.modelBase}/runs/${seed}~${tag}`;
    const model = await this.#client(scenario, runUrl);
    const clock = new LiveClock(scale);
    return {
      tools,
      clock,
      model,
      finish: async () => {
        const report = await tools.close();
        const counts = (await (await fetch(`${runUrl}/faults`)).json()) as Record<ModelFaultKind, number> | null;
        await (await fetch(`${runUrl}/`, { method: 'DELETE' })).body?.cancel();
        const modelFaults =
          counts === null
            ? null
            : (Object.fromEntries(MODEL_FAULT_KINDS.map((kind) => [kind, counts[kind] ?? 0])) as Record<
                ModelFaultKind,
                number
              >);
        const mismatches =
          report.client.filter((call, i) => call.fault !== report.served[i]?.fault).length +
          Math.abs(report.client.length - report.served.length);
        const record: LiveRecord = {
          mode: 'live',
          timeout_ms: this.timeoutMs,
          time_scale: scale,
          wall_ms: Math.round(clock.wallMs()),
          fault_mismatches: mismatches,
        };
        return { world: report.world, tools: report, modelFaults, record };
      },
    };
  }

  /**
   * The real client of the scenario's API over HTTP: the Anthropic SDK (its timeout the
   * scenario's model timeout at the scale, so a model timeout fault hangs until it fires),
   * or the openai client at /v1 for `api: openai-chat`.
   */
  async #client(scenario: Scenario, runUrl: string): Promise<ModelClient> {
    if (scenario.api === 'openai-chat') {
      const { OpenAICompatibleModelClient } = await import('../model/openai/openai-compatible-client.js');
      return new OpenAICompatibleModelClient({
        apiKey: 'sk-live-simulated',
        baseURL: `${runUrl}/v1`,
        name: 'simulated-live-http',
      });
    }
    const { AnthropicModelClient } = await import('../model/anthropic-client.js');
    return new AnthropicModelClient({
      apiKey: 'sk-ant-live-simulated',
      baseURL: runUrl,
      name: 'simulated-live-http',
      timeoutMs: this.modelTimeoutMs(scenario),
    });
  }

  async close(): Promise<void> {
    for (const parts of this.#scenarios.values()) {
      const { tools, server } = await parts;
      await tools.close();
      await server?.close();
    }
  }

  #parts(scenario: Scenario): Promise<ScenarioParts> {
    let parts = this.#scenarios.get(scenario.id);
    if (parts === undefined) {
      parts = this.#start(scenario);
      this.#scenarios.set(scenario.id, parts);
    }
    return parts;
  }

  async #start(scenario: Scenario): Promise<ScenarioParts> {
    const sweepSeed = this.#options.sweepSeed ?? 0;
    const tools = scenarioToolServer(scenario, sweepSeed, this.timeoutMs);
    const toolBase = await tools.listen();
    if (this.#options.modelUrl !== undefined)
      return { tools, toolBase, modelBase: this.#options.modelUrl.replace(/\/+$/, ''), server: undefined };
    const server = new ModelServer({
      scenario,
      sweepSeed,
      faults: true,
      clock: new VirtualClock(),
      holdTimeoutsMs: 4 * this.modelTimeoutMs(scenario),
    });
    return { tools, toolBase, modelBase: await server.listen(), server };
  }
}
