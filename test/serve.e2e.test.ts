import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServed } from '../examples/serve/agent.js';
import { runAgentSweep } from '../src/sweep/agent-sweep.js';
import { allSpans } from '../src/results/otlp-nesting.test-helpers.js';
import { exportTraceServiceRequestSchema } from '../src/results/otlp-trace.js';
import { cli, tempDir } from './cli-helpers.js';
import type { RunRecord } from '../src/results/run-record-schema.js';
import { inProcess, readRuns, request, same, startServe } from './serve-helpers.js';

/** Seeds enough for several fault kinds and both verdicts (checked); 200 agents at once is serve-crowd.e2e. */
const SEEDS = 100;
/** Runs the out-of-process agent keeps in flight at once. */
const IN_FLIGHT = 8;
/** A key-shaped secret the agent sends on every request: nothing serve writes or answers may hold it. */
const FAKE_KEY = 'sk-ant-api03-SERVETESTFAKEKEY0123456789';

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

/** The agent run against `serve` (IN_FLIGHT runs at once) and in-process, over the same seeds. */
async function bothWays(scenario: string, seeds: number, out: string, extra: readonly string[] = []) {
  const serve = await startServe(['-s', scenario, '-n', String(seeds), '-o', out, '--arm', 'ts-agent', ...extra]);
  let next = 1;
  const answered: string[] = [];
  const worker = async () => {
    while (next <= seeds) {
      const seed = next++;
      answered.push(JSON.stringify(await runServed(serve.about.url, { seed, apiKey: FAKE_KEY })));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const exited = await serve.exited;
  expect(exited.code, exited.stderr).toBe(0);
  const { records } = await runAgentSweep({ agent: inProcess, scenarios: [scenario], seeds });
  return { ...exited, answered, served: readRuns(out), inProcess: records };
}

describe('spiralbench serve', () => {
  it(`gives an out-of-process agent (Anthropic SDK + MCP client) the faults and verdicts it meets in-process, over ${SEEDS} seeds`, async () => {
    const dir = tempDir('spiralbench-serve-');
    const out = join(dir, 'served');
    const otel = join(dir, 'served-otel.json');
    const {
      stdout,
      stderr,
      answered,
      served,
      inProcess: records,
    } = await bothWays('fetch-transform-write', SEEDS, out, ['--otel', otel]);
    expect(stderr).toContain(`all ${SEEDS} runs ended`);
    expect(served.map((record) => record.seed)).toEqual(Array.from({ length: SEEDS }, (_, i) => i + 1));
    expect(served.map(same)).toEqual(records.map(same));
    // Not a trivial equality: the seeds meet faults of several kinds and end in more than one verdict.
    const kinds = new Set(
      served.flatMap((record) =>
        Object.entries(record.faults)
          .filter(([, n]) => n > 0)
          .map(([kind]) => kind),
      ),
    );
    expect(kinds.size).toBeGreaterThanOrEqual(3);
    expect(new Set(served.map((record) => record.verdict)).size).toBeGreaterThanOrEqual(2);
    expect(served.every((record) => record.model === 'simulated-served' && record.arm === 'agent:ts-agent')).toBe(true);

    // The folder is complete: report and compare read it; a served trace replays from it.
    for (const file of ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl', 'meta.json'])
      expect(existsSync(join(out, file))).toBe(true);
    expect(existsSync(join(out, 'progress.json'))).toBe(false);
    const report = cli(['report', out]);
    expect(report.status, report.stderr).toBe(0);
    const compare = cli(['compare', out, out]);
    expect(compare.status, compare.stderr).toBe(0);
    const trace = JSON.parse(readFileSync(join(out, 'traces.jsonl'), 'utf8').split('\n')[0]!) as {
      replay: string;
      seed: number;
    };
    const replay = cli(trace.replay.split(' ').slice(1));
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('served');
    const spans = allSpans(exportTraceServiceRequestSchema.parse(JSON.parse(readFileSync(otel, 'utf8'))));
    expect(spans.filter((span) => span.name === 'invoke_agent agent:ts-agent')).toHaveLength(SEEDS);
    expect(spans.some((span) => span.name.startsWith('execute_tool '))).toBe(true);

    // No key in anything serve wrote, printed or answered.
    for (const text of [allText(dir), stdout, stderr, answered.join('\n')]) {
      expect(text).not.toContain(FAKE_KEY);
      expect(text).not.toContain('SERVETESTFAKEKEY');
    }
  });

  it.each(['model-outage', 'send-email-partial-write', 'warehouse-connection-refused'])(
    'meets the same model faults, dropped connections and lost answers as in-process (%s, 40 seeds)',
    async (scenario) => {
      const { served, inProcess: records } = await bothWays(
        scenario,
        40,
        join(tempDir('spiralbench-serve-'), 'served'),
      );
      expect(served.map(same)).toEqual(records.map(same));
      const met = (record: RunRecord) =>
        [...Object.values(record.faults), ...Object.values(record.model_faults ?? {})].reduce((sum, n) => sum + n, 0);
      expect(served.some((record) => met(record) > 0)).toBe(true);
    },
  );

  it('writes the same folder bytes whatever order the runs end in', async () => {
    const folders: string[] = [];
    for (const order of ['one at a time, last seed first', 'eight at once'] as const) {
      const cwd = tempDir('spiralbench-serve-');
      const serve = await startServe(['-s', 'fetch-transform-write', '-n', '30', '-o', 'served'], cwd);
      const seeds = Array.from({ length: 30 }, (_, i) => 30 - i);
      if (order === 'eight at once') {
        const worker = async () => {
          for (let seed = seeds.pop(); seed !== undefined; seed = seeds.pop())
            await runServed(serve.about.url, { seed });
        };
        await Promise.all(Array.from({ length: 8 }, worker));
      } else for (const seed of seeds) await runServed(serve.about.url, { seed });
      expect((await serve.exited).code).toBe(0);
      folders.push(join(cwd, 'served'));
    }
    for (const file of ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'])
      expect(readFileSync(join(folders[1]!, file), 'utf8'), file).toBe(readFileSync(join(folders[0]!, file), 'utf8'));
  });

  it('refuses unknown and ended runs, bad seeds and bad endings with JSON saying what to do, and echoes no key', async () => {
    const out = join(tempDir('spiralbench-serve-'), 'served');
    const serve = await startServe(['-s', 'fetch-transform-write', '-n', '2', '-o', out]);
    const { url } = serve.about;
    const answers: string[] = [];
    const ask = async (path: string, body: unknown, method = 'POST') => {
      const answer = await request(`${url}${path}`, body, FAKE_KEY, method);
      answers.push(answer.text, answer.headers);
      // biome-ignore lint/suspicious/noExplicitAny: the test reads JSON answers field by field.
      return { status: answer.status, body: JSON.parse(answer.text) as Record<string, any> };
    };
    expect((await ask('/runs/run-7/end', { outcome: 'completed' })).status).toBe(404);
    expect((await ask('/runs', { seed: 9 })).status).toBe(400);
    expect((await ask('/runs', { sed: 1 })).body.error.message).toContain('sed');
    const started = await ask('/runs', { seed: 2 });
    expect(started.status).toBe(201);
    expect(started.body.mcp_url).toBe(`${url}/runs/run-2/mcp`);
    expect((await ask('/runs', { seed: 2 })).status).toBe(409);
    const model = await ask('/runs/run-2/v1/messages', {
      model: started.body.model,
      max_tokens: 1024,
      system: started.body.system,
      messages: started.body.messages,
      tools: started.body.tools,
    });
    expect(model.status).toBe(200);
    const listed = await ask('/runs/run-2/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const tools = listed.body.result.tools as Array<{ name: string; annotations: Record<string, boolean> }>;
    expect(tools.find((tool) => tool.name === 'write_result')?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
    expect(tools.find((tool) => tool.name === 'get_user')?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
    });
    const bad = await ask('/runs/run-2/end', { outcome: 'done' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^outcome: expected one of 'completed'/);
    const ended = await ask('/runs/run-2/end', { outcome: 'completed', final_text: 'done' });
    expect(ended.status).toBe(200);
    expect(ended.body.verdict).toBe('failure');
    expect((await ask('/runs/run-2/end', { outcome: 'completed' })).status).toBe(409);
    expect((await ask('/runs/run-2/v1/messages', {})).status).toBe(409);
    const next = await ask('/runs', {});
    expect(next.body.seed).toBe(1);
    expect((await ask('/runs', {})).status).toBe(409);
    await ask('/runs/run-1/end', { outcome: 'failed', reason: 'gave up' });
    const { code } = await serve.exited;
    expect(code).toBe(0);
    for (const text of [...answers, allText(out)]) expect(text).not.toContain('SERVETESTFAKEKEY');
  });

  it('records a run whose agent was killed mid-run as failed with its reason, never a hole', async () => {
    const out = join(tempDir('spiralbench-serve-'), 'served');
    const serve = await startServe(['-s', 'fetch-transform-write', '-n', '2', '-o', out, '--idle-timeout', '1']);
    const { url } = serve.about;
    // An agent in its own process: it starts run 1, makes one model call and is killed.
    const agent = spawn(process.execPath, [
      '-e',
      `const headers = { 'content-type': 'application/json' };
       const run = await (await fetch('${url}/runs', { method: 'POST', headers, body: '{"seed":1}' })).json();
       await fetch(run.anthropic_base_url + '/v1/messages', { method: 'POST', headers, body: JSON.stringify({ model: run.model, max_tokens: 1024, system: run.system, messages: run.messages, tools: run.tools }) });
       process.kill(process.pid, 'SIGKILL');`,
      '--input-type=module',
    ]);
    await new Promise((resolve) => agent.once('close', resolve));
    await serve.stderrLine('run 1: ');
    await request(`${url}/runs`, { seed: 2 }, FAKE_KEY);
    await request(`${url}/runs/run-2/end`, { outcome: 'failed', reason: 'test' }, FAKE_KEY);
    const { code, stderr } = await serve.exited;
    expect(code, stderr).toBe(0);
    const [killed] = readRuns(out);
    expect(killed).toMatchObject({ seed: 1, outcome: 'failed', model_calls: expect.any(Number) });
    expect(JSON.stringify(killed)).toContain('no request for 1 s: the agent stopped without ending the run');
  });

  it('on SIGTERM records the runs in flight as failed and leaves the folder marked unfinished', async () => {
    const out = join(tempDir('spiralbench-serve-'), 'served');
    const serve = await startServe(['-s', 'fetch-transform-write', '-n', '3', '-o', out]);
    await request(`${serve.about.url}/runs`, { seed: 2 }, FAKE_KEY);
    serve.child.kill('SIGTERM');
    const { code, stderr } = await serve.exited;
    expect(code, stderr).toBe(130);
    expect(readRuns(out)).toMatchObject([{ seed: 2, outcome: 'failed' }]);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    expect(existsSync(join(out, 'progress.json'))).toBe(true);
    // Every refusal gives advice a served folder can follow: serve has no --resume.
    for (const command of [
      ['report', out],
      ['compare', out, out],
    ]) {
      const refused = cli(command);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('serve cannot continue');
      expect(refused.stderr).not.toContain('spiralbench run');
    }
    // Serving into it again is refused unless told to discard it.
    const again = cli(['serve', '-s', 'fetch-transform-write', '-n', '3', '-o', out, '--port', '0']);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('--overwrite');
    expect(again.stderr).not.toContain('--resume');
  });
});
