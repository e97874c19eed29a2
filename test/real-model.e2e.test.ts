import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, cliAsync, tempDir } from './cli-helpers.js';
import { startFakeProvider, type FakeProvider } from './fake-provider-server.js';

const OPENAI_KEY = 'sk-proj-FAKE-OPENAI-KEY-for-redaction-0123456789';
const ANTHROPIC_KEY = 'sk-ant-api03-FAKE-KEY-for-redaction-test-0123456789';

interface Record_ {
  readonly arm: string;
  readonly seed: number;
  readonly model: string;
  readonly outcome: string;
  readonly verdict: string;
  readonly model_calls: number;
}

const readRecords = (dir: string): Record_[] =>
  readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record_);
const everythingWritten = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')) : [];

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('a real model over --provider openai-compatible --base-url', () => {
  it('runs whole runs against a local server, judged on the world, at most --concurrency requests at once', async () => {
    provider = await startFakeProvider({ scenario: 'fetch-transform-write' });
    const out = join(tempDir(), 'local');
    const run = await cliAsync(
      [
        'run',
        '-s',
        'fetch-transform-write',
        '-a',
        'none,article',
        '-n',
        '3',
        '--model',
        'fake-llama',
        '--provider',
        'openai-compatible',
        '--base-url',
        `${provider.url}/v1`,
        '--concurrency',
        '2',
        '-o',
        out,
      ],
      { OPENAI_API_KEY: OPENAI_KEY },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `real model: openai-compatible:fake-llama at ${provider.url}/v1 · up to 2 request(s) at once`,
    );
    expect(run.stderr).toContain('is a local server and the price table has no price');
    expect(run.stdout).toContain('model: openai-compatible:fake-llama');
    const records = readRecords(out);
    expect(records.map((record) => `${record.arm}/${record.seed}`)).toEqual([
      'none/1',
      'none/2',
      'none/3',
      'article/1',
      'article/2',
      'article/3',
    ]);
    expect(new Set(records.map((record) => record.model))).toEqual(new Set(['openai-compatible:fake-llama']));
    // Judged on the world the tools left: the stand-in follows the task plan, so runs finish and some succeed.
    expect(records.every((record) => record.outcome !== 'failed')).toBe(true);
    expect(records.some((record) => record.verdict === 'success')).toBe(true);
    const calls = records.reduce((sum, record) => sum + record.model_calls, 0);
    expect(provider.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(calls);
    expect(provider.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(provider.maxOpen()).toBeLessThanOrEqual(2);
    for (const text of [run.stdout, run.stderr, ...everythingWritten(out)])
      expect(text).not.toContain('FAKE-OPENAI-KEY');
  });

  it('holds new requests until the reset when the server says none remain', async () => {
    // The first answer spends the limit for 150 ms (a real wait: this path runs on the wall clock).
    provider = await startFakeProvider({
      scenario: 'lookup-readonly',
      headers: (n) =>
        n === 0
          ? { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '150ms' }
          : { 'x-ratelimit-remaining-requests': '99', 'x-ratelimit-reset-requests': '1s' },
    });
    const out = join(tempDir(), 'held');
    const run = await cliAsync([
      'run',
      '-s',
      'lookup-readonly',
      '-a',
      'none',
      '-n',
      '2',
      '--model',
      'fake-llama',
      '--provider',
      'openai-compatible',
      '--base-url',
      `${provider.url}/v1`,
      '--concurrency',
      '1',
      '-o',
      out,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/rate limit: holding new requests \d+ ms \(x-ratelimit-remaining-requests: 0\)/);
    const [first, second] = provider.requests;
    expect(second!.arrivedMs - first!.answeredMs).toBeGreaterThanOrEqual(140);
  });

  it('names what is wrong with a bad combination of flags, exit code 2 (every case: model-choice.test.ts)', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--provider', 'openai-compatible'], /^error: --provider: applies to a real model only: name one with --model/m],
      [
        ['--model', 'llama3.1', '--provider', 'openai-compatible', '--base-url', 'not a url?key=sk-SECRET-in-url-123'],
        /^error: --base-url: an http\(s\) URL such as .*the value is not repeated here/m,
      ],
    ];
    for (const [flags, expected] of cases) {
      const result = cli(['run', '-s', 'lookup-readonly', '-n', '1', '-o', join(tempDir(), 'bad'), ...flags]);
      expect(result.status, flags.join(' ')).toBe(2);
      expect(result.stderr, flags.join(' ')).toMatch(expected);
      expect(result.stderr).not.toContain('SECRET-in-url');
    }
  });
});

describe('the cost estimate before a real sweep', () => {
  it('stops at the estimate without --yes when there is no terminal, and sends nothing', async () => {
    provider = await startFakeProvider({ scenario: 'fetch-transform-write' });
    const out = join(tempDir(), 'refused');
    const run = await cliAsync(
      [
        'run',
        '-s',
        'fetch-transform-write',
        '-a',
        'none,article',
        '-n',
        '40',
        '--model',
        'claude-sonnet-4-5',
        '-o',
        out,
      ],
      {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: provider.url,
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^cost estimate for 80 run\(s\): about \$\d+\.\d\d \(the costliest simulated run: \$[\d.]+\)$/m,
    );
    expect(run.stderr).toContain(
      'from 80 in-process run(s) of the simulated model on the same scenarios, arms and seeds',
    );
    expect(run.stderr).toContain(
      "priced at claude-sonnet-4-5's list prices ($3 / $15 per million input / output tokens)",
    );
    expect(run.stderr).toContain('an estimate from the simulated model, not a quote');
    expect(run.stderr).toMatch(
      /^error: --yes: the estimated cost \(\$\d+\.\d\d\) is above --max-cost \(\$1\.00\) and there is no terminal to ask on; nothing was run\. Pass --yes/m,
    );
    expect(provider.requests).toHaveLength(0);
    expect(existsSync(join(out, 'runs.jsonl'))).toBe(false);
  });

  it('--yes starts a sweep over --max-cost without asking, through --base-url for the anthropic provider; the cap then stops it', async () => {
    provider = await startFakeProvider({ scenario: 'lookup-readonly' });
    const out = join(tempDir(), 'yes');
    const run = await cliAsync(
      [
        'run',
        '-s',
        'lookup-readonly',
        '-a',
        'none',
        '-n',
        '1',
        '--model',
        'claude-haiku-4-5',
        '--base-url',
        provider.url,
        '--max-cost',
        '0',
        '--yes',
        '-o',
        out,
      ],
      { ANTHROPIC_API_KEY: ANTHROPIC_KEY },
    );
    // Started without asking; a --max-cost given on the command line then holds the sweep: its first call spends it.
    expect(run.status, run.stderr).toBe(5);
    expect(run.stderr).toMatch(/^cost estimate for 1 run\(s\): about \$0\.\d+/m);
    expect(run.stderr).toContain('stopped at --max-cost $0:');
    expect(provider.requests).toHaveLength(1);
    // --base-url points the Anthropic provider at a proxy: Messages requests, the key sent only there.
    expect(
      provider.requests.every(
        (request) => request.path === '/v1/messages' && request.headers.authorization === `Bearer ${ANTHROPIC_KEY}`,
      ),
    ).toBe(true);
    // Without the cap, --yes runs it to the end.
    const capless = await cliAsync(
      [
        'run',
        '-s',
        'lookup-readonly',
        '-a',
        'none',
        '-n',
        '1',
        '--model',
        'claude-haiku-4-5',
        '--base-url',
        provider.url,
        '--yes',
        '-o',
        out,
        '--resume',
      ],
      { ANTHROPIC_API_KEY: ANTHROPIC_KEY },
    );
    expect(capless.status, capless.stderr).toBe(0);
    expect(readRecords(out).map((record) => record.model)).toEqual(['anthropic:claude-haiku-4-5']);
  });

  it('asks for a model the price table does not know on a server that is not local', async () => {
    provider = await startFakeProvider({ scenario: 'lookup-readonly' });
    const args = [
      'run',
      '-s',
      'lookup-readonly',
      '-a',
      'none',
      '-n',
      '1',
      '--model',
      'gpt-unknown',
      '--provider',
      'openai-compatible',
      '--base-url',
      'https://models.example.com/v1',
    ];
    const refused = await cliAsync([...args, '-o', join(tempDir(), 'unknown')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("cost: unknown: the price table has no price for 'gpt-unknown'");
    expect(refused.stderr).toMatch(
      /^error: --yes: the cost cannot be estimated \(no price for this model\) and there is no terminal to ask on; nothing was run\. Pass --yes to run it anyway$/m,
    );
  });
});

describe('what a real sweep prints on stderr', () => {
  it("prints the SDK's deprecation warning for an old model id once for the sweep, not once a request", async () => {
    provider = await startFakeProvider({ scenario: 'lookup-readonly' });
    const run = await cliAsync(
      [
        'run',
        '-s',
        'lookup-readonly',
        '-a',
        'none,article',
        '-n',
        '3',
        '--model',
        'claude-sonnet-4-5',
        '--base-url',
        provider.url,
        '--yes',
        '-o',
        join(tempDir(), 'deprecated'),
      ],
      { ANTHROPIC_API_KEY: ANTHROPIC_KEY },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(provider.requests.length).toBeGreaterThan(6);
    expect(run.stderr.match(/The model 'claude-sonnet-4-5' is deprecated/g)).toHaveLength(1);
  });
});
