import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { AnthropicModelClient } from '../model/anthropic-client.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { OpenAICompatibleModelClient } from '../model/openai/openai-compatible-client.js';
import { loadScenario } from '../scenarios/loader.js';
import { ModelServer } from './model-server.js';
import { clientModel, sdkModel } from '../run/model-source.js';

const article = ARM_PRESETS.get('article') as Arm;
const withoutModel = <T extends { model: string }>(record: T) => ({ ...record, model: 'x' });

describe('ModelServer: the simulated model over real HTTP on loopback', () => {
  const reference = loadScenario('fetch-transform-write');
  const edge = loadScenario('malformed-args');
  const servers = [
    new ModelServer({ scenario: reference, clock: new VirtualClock() }),
    new ModelServer({ scenario: edge, clock: new VirtualClock(), faults: true }),
  ];
  let anthropicBase = '';
  let openaiBase = '';
  beforeAll(async () => {
    const [anthropic, openai] = await Promise.all(servers.map((server) => server.listen()));
    anthropicBase = anthropic ?? '';
    openaiBase = openai ?? '';
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('answers the real Anthropic SDK over a socket exactly as in-process: the same runs, seed by seed', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const client = new AnthropicModelClient({
        apiKey: 'sk-ant-local',
        baseURL: `${anthropicBase}/runs/${seed}`,
        name: 'simulated-http',
      });
      const overHttp = await runOne({
        sweepSeed: 0,
        scenario: reference,
        arm: article,
        seed,
        model: clientModel(client, DEFAULT_MODEL_ID),
      });
      const inProcess = await runOne({ sweepSeed: 0, scenario: reference, arm: article, seed });
      expect(overHttp.record.model).toBe('simulated-http');
      expect(withoutModel(overHttp.record)).toEqual(withoutModel(inProcess.record));
      expect(JSON.stringify(overHttp.result.messages)).toBe(JSON.stringify(inProcess.result.messages));
    }
  });

  it('answers the real openai client at /v1/chat/completions, malformed arguments included', async () => {
    for (const seed of [1, 2, 3]) {
      const client = new OpenAICompatibleModelClient({
        apiKey: 'sk-local',
        baseURL: `${openaiBase}/runs/${seed}/v1`,
        name: 'simulated-openai-http',
      });
      const overHttp = await runOne({
        sweepSeed: 0,
        scenario: edge,
        arm: article,
        seed,
        model: clientModel(client, DEFAULT_MODEL_ID),
      });
      const inProcess = await runOne({ sweepSeed: 0, scenario: edge, arm: article, seed });
      expect(withoutModel(overHttp.record)).toEqual(withoutModel(inProcess.record));
    }
  });

  it('answers an unknown path with a 404 that names the paths it serves', async () => {
    const response = await fetch(`${anthropicBase}/v1/messages`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('/runs/<seed>/v1/messages');
  });
});

describe('ModelServer: fault state per run, not per seed', () => {
  const outage = loadScenario('model-rate-limit-storm');
  const server = new ModelServer({ scenario: outage, clock: new VirtualClock(), faults: true });
  let base = '';
  beforeAll(async () => {
    base = await server.listen();
  });
  afterAll(async () => {
    await server.close();
  });

  // All the injector counts; a non-streaming record leaves the stream cut out.
  const faultsOf = async (run: string) => {
    const { stream_cut: _cut, ...counts } = (await (await fetch(`${base}/runs/${run}/faults`)).json()) as Record<
      string,
      number
    >;
    return counts;
  };

  it('a second run of a seed under its own ~tag meets the faults of an in-process run again, counted apart', async () => {
    const arm = ARM_PRESETS.get('none') as Arm;
    const seed = 1;
    const inProcess = await runOne({ sweepSeed: 0, scenario: outage, arm, seed, model: sdkModel() });
    const runOver = async (run: string) => {
      const client = new AnthropicModelClient({
        apiKey: 'sk-ant-local',
        baseURL: `${base}/runs/${run}`,
        name: 'simulated-http',
      });
      return runOne({
        sweepSeed: 0,
        scenario: outage,
        arm,
        seed,
        model: clientModel(client, DEFAULT_MODEL_ID),
      });
    };
    const first = await runOver(`${seed}~a`);
    const second = await runOver(`${seed}~b`);
    // The faults are injected (and their virtual time spent) on the server, so those two fields are compared apart.
    const comparable = <T extends { model: string }>(record: T) => ({
      ...withoutModel(record),
      model_faults: null,
      virtual_ms: null,
    });
    expect(Object.values(inProcess.record.model_faults).reduce((a, b) => a + b)).toBeGreaterThan(0);
    expect(comparable(first.record)).toEqual(comparable(inProcess.record));
    expect(comparable(second.record)).toEqual(comparable(inProcess.record));
    // The server counted each tagged run's faults apart, and they are the in-process run's.
    expect(await faultsOf(`${seed}~a`)).toEqual(inProcess.record.model_faults);
    expect(await faultsOf(`${seed}~b`)).toEqual(inProcess.record.model_faults);
  });
});

describe('ModelServer: a model timeout fault, live', () => {
  const base = loadScenario('fetch-transform-write');
  const timingOut = { ...base, modelFaults: { ...base.modelFaults, rates: { timeout: 1 }, timeoutMs: 1000 } };
  const request = { model: DEFAULT_MODEL_ID, max_tokens: 256, messages: [{ role: 'user' as const, content: 'hello' }] };

  it('with holdTimeoutsMs, hangs until the SDK’s own timeout fires (APIConnectionTimeoutError); without, drops the connection', async () => {
    const holding = new ModelServer({
      scenario: timingOut,
      clock: new VirtualClock(),
      faults: true,
      holdTimeoutsMs: 2000,
    });
    const dropping = new ModelServer({ scenario: timingOut, clock: new VirtualClock(), faults: true });
    const [held, dropped] = await Promise.all([holding.listen(), dropping.listen()]);
    try {
      const errorOf = (url: string) =>
        new AnthropicModelClient({ apiKey: 'sk-ant-local', baseURL: `${url}/runs/1`, timeoutMs: 150 })
          .create(request)
          .then(
            () => null,
            (error: unknown) => error as Error,
          );
      const started = performance.now();
      const timedOut = await errorOf(held);
      expect(timedOut?.constructor.name).toBe('APIConnectionTimeoutError');
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect((await errorOf(dropped))?.constructor.name).toBe('APIConnectionError');
    } finally {
      await Promise.all([holding.close(), dropping.close()]);
    }
  });
});
