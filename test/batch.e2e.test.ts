import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliAsync, tempDir } from './cli-helpers.js';
import { startFakeProvider, type FakeProvider } from './fake-provider-server.js';

const KEY = 'sk-ant-batch-test';
const ARGS = [
  'run',
  '-s',
  'fetch-transform-write',
  '-a',
  'none,article',
  '-n',
  '8',
  '--model',
  'claude-sonnet-4-5',
  '-y',
];

const records = (dir: string) =>
  readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown> & { cost_usd: number });

/** Records of two sweeps alike but for the cost, which is half in `batched`. */
function expectSameButHalfPrice(direct: string, batched: string): void {
  const sync = records(direct);
  const batch = records(batched);
  expect(batch).toHaveLength(sync.length);
  batch.forEach((record, i) => {
    const { cost_usd: half, ...rest } = record;
    const { cost_usd: full, ...same } = sync[i]!;
    expect(rest).toEqual(same);
    expect(Math.abs(half - full / 2)).toBeLessThanOrEqual(1e-6);
  });
}

describe('run --batch: a sweep through the Message Batches API', () => {
  let provider: FakeProvider | undefined;
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });
  // The synchronous sweep both batched ones are compared with: the stand-in's replies are a
  // function of the request alone, so one run of it serves every test.
  const dir = tempDir();
  const synchronous = join(dir, 'sync');
  beforeAll(async () => {
    const server = await startFakeProvider({ scenario: 'fetch-transform-write' });
    const sync = await cliAsync([...ARGS, '-o', synchronous], {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
    });
    await server.close();
    expect(sync.status, sync.stderr).toBe(0);
  }, 120_000);

  it('gives the records of the synchronous sweep, at half the price', async () => {
    provider = await startFakeProvider({ scenario: 'fetch-transform-write' });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: provider.url };
    const batch = await cliAsync([...ARGS, '--batch', '--batch-poll-ms', '10', '-o', join(dir, 'batch')], env);
    expect(batch.status, batch.stderr).toBe(0);
    expectSameButHalfPrice(synchronous, join(dir, 'batch'));
    const batches = readFileSync(join(dir, 'batch', 'batches.jsonl'), 'utf8')
      .trim()
      .split('\n');
    // Turn by turn: 16 runs' first requests went out together.
    expect(JSON.parse(batches[0]!).custom_ids).toHaveLength(16);
  }, 120_000);

  it('killed mid-batch (kill -9) and resumed: every request sent once, and the same records', async () => {
    const sent: string[] = [];
    // The first batch stays in progress for a while; the others end at once.
    provider = await startFakeProvider({
      scenario: 'fetch-transform-write',
      batches: { pollsUntilEnded: (batch) => (batch === 0 ? 4 : 0), onRequest: (id) => sent.push(id) },
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: provider.url };
    const out = join(dir, 'killed');
    const child = spawn(process.execPath, [BIN, ...ARGS, '--batch', '--batch-poll-ms', '300', '-o', out], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    // Killed once the first batch is on record and before it has ended.
    const journal = join(out, 'batches.jsonl');
    for (let i = 0; i < 400 && !(existsSync(journal) && readFileSync(journal, 'utf8').includes('\n')); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(sent).toHaveLength(16);

    const resumed = await cliAsync([...ARGS, '--batch', '--batch-poll-ms', '10', '-o', out, '--resume'], env);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(new Set(sent).size).toBe(sent.length);
    expectSameButHalfPrice(synchronous, out);
  }, 120_000);

  it('refuses what a batch cannot do, naming the flag', async () => {
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const streamed = await cliAsync([...ARGS, '--batch', '--stream', '-o', join(tempDir(), 'x')], env);
    expect(streamed.status).toBe(2);
    expect(streamed.stderr).toContain('--stream');
    const simulated = await cliAsync([
      'run',
      '-s',
      'fetch-transform-write',
      '-n',
      '2',
      '--batch',
      '-o',
      join(tempDir(), 'y'),
    ]);
    expect(simulated.status).toBe(2);
    expect(simulated.stderr).toContain('--batch');
  }, 60_000);
});
