import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, cliAsync, tempDir } from './cli-helpers.js';
import { startFakeProvider } from './fake-provider-server.js';

const KEY = 'sk-ant-api03-FAKE-KEY-for-redaction-test-0123456789';
const OPENAI_KEY = 'sk-proj-FAKE-OPENAI-KEY-for-redaction-0123456789';

const written = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')) : [];

function expectNoSecret(texts: readonly string[], secrets: readonly string[]): void {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('a real-model run never writes the API key', () => {
  it('keeps the key out of stdout, stderr and results when every call fails and the sweep stops early', () => {
    const out = join(tempDir(), 'real');
    // A closed port on this machine: every call fails at once with a connection error.
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const run = cli(
      [
        'run',
        '-s',
        'lookup-readonly',
        '-a',
        'none,recover',
        '-n',
        '3',
        '--model',
        'claude-sonnet-5-5',
        '-o',
        out,
        '--report',
        join(out, 'report.html'),
      ],
      env,
    );
    // No call is answered: the sweep stops after its first runs (exit 4), before any report.
    expect(run.status, run.stderr).toBe(4);
    expect(run.stderr).toContain('the real model never answered');
    const records = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { outcome: string; model: string });
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(new Set(records.map((record) => record.outcome))).toEqual(new Set(['failed']));
    expect(records[0]?.model).toBe('anthropic:claude-sonnet-5-5');
    expectNoSecret([run.stdout, run.stderr, ...written(out)], [KEY, 'FAKE-KEY']);
  });

  it('keeps OPENAI_API_KEY out of everything, even when the server echoes it in its error', async () => {
    // Every call but the first is refused with the credentials quoted back, as some proxies do
    // (the one answer keeps the sweep going to its end, and its report).
    const provider = await startFakeProvider({
      scenario: 'lookup-readonly',
      fail: (n, request) =>
        n === 0
          ? undefined
          : {
              status: 401,
              body: {
                error: {
                  message: `Incorrect API key provided: ${request.headers.authorization ?? ''}`,
                  type: 'invalid_request_error',
                  param: null,
                  code: 'invalid_api_key',
                },
              },
            },
    });
    try {
      const out = join(tempDir(), 'openai');
      const run = await cliAsync(
        [
          'run',
          '-s',
          'lookup-readonly',
          '-a',
          'none,recover',
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
          '--report',
          join(out, 'report.html'),
        ],
        {
          OPENAI_API_KEY: OPENAI_KEY,
        },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(provider.requests.map((request) => request.headers.authorization)).toContain(`Bearer ${OPENAI_KEY}`);
      const records = readFileSync(join(out, 'runs.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { outcome: string; failure_reason?: { message: string } });
      expect(records.map((record) => record.outcome)).toEqual(Array(4).fill('failed'));
      // The reason each run failed is kept, with the echoed key scrubbed from it.
      expect(records[1]?.failure_reason?.message).toBe('Incorrect API key provided: Bearer [redacted]');
      expectNoSecret([run.stdout, run.stderr, ...written(out)], [OPENAI_KEY, 'FAKE-OPENAI-KEY']);
    } finally {
      await provider.close();
    }
  });

  it('keeps the key and a password in --base-url out of the refusal of such a URL', async () => {
    const provider = await startFakeProvider({ scenario: 'fetch-transform-write' });
    try {
      const [, hostAndPort] = provider.url.split('//');
      const baseUrl = `http://proxy-user:FAKE-URL-PASSWORD-42@${hostAndPort!}`;
      const run = await cliAsync(
        [
          'run',
          '-s',
          'fetch-transform-write',
          '-a',
          'none',
          '-n',
          '50',
          '--model',
          'claude-opus-4-1',
          '--base-url',
          baseUrl,
          '--max-cost',
          '0.01',
          '-o',
          join(tempDir(), 'prompt'),
        ],
        {
          ANTHROPIC_API_KEY: KEY,
        },
      );
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /^error: --base-url: a URL without user:password@ \(the value is not repeated here\)/m,
      );
      expect(provider.requests).toHaveLength(0);
      expectNoSecret([run.stdout, run.stderr], [KEY, 'FAKE-KEY', 'FAKE-URL-PASSWORD']);
    } finally {
      await provider.close();
    }
  });

  it("keeps the key out of a cassette, our loop's calls and an agent's, when the server echoes it", async () => {
    // Every fourth call is refused with the key quoted back in its body and a header, as some proxies do.
    const echo = (n: number) => n % 4 === 3;
    const provider = await startFakeProvider({
      scenario: 'fetch-transform-write',
      headers: (n) => (echo(n) ? { 'x-echo': `key ${KEY}` } : {}),
      fail: (n, request) =>
        echo(n)
          ? {
              status: 429,
              body: {
                type: 'error',
                error: {
                  type: 'rate_limit_error',
                  message: `slow down, ${request.headers['x-api-key'] ?? request.headers.authorization}`,
                },
              },
            }
          : undefined,
    });
    try {
      const cassette = join(tempDir(), 'cassette');
      const agent = new URL('./fixtures/agents/hand-written-loop.ts', import.meta.url).pathname;
      // Our loop's arm and a user's agent, two seeds each.
      const sweep = ['run', '-s', 'fetch-transform-write', '-a', 'recover', '--agent', agent, '-n', '2'];
      const run = await cliAsync(
        [
          ...sweep,
          '--model',
          'claude-sonnet-4-5',
          '--base-url',
          provider.url,
          '-y',
          '-o',
          join(cassette, '..', 'recorded'),
          '--record',
          cassette,
        ],
        { ANTHROPIC_API_KEY: KEY },
      );
      expect(run.status, run.stderr).toBe(0);
      const keyed = (headers: (typeof provider.requests)[number]['headers']) =>
        headers['x-api-key'] === KEY || headers.authorization === `Bearer ${KEY}`;
      expect(provider.requests.length).toBeGreaterThan(8);
      expect(provider.requests.every((request) => keyed(request.headers))).toBe(true);
      const files = readdirSync(cassette, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      const texts = files.map((entry) => {
        const bytes = readFileSync(join(entry.parentPath, entry.name));
        return entry.name.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
      });
      expect(texts.join('\n')).toContain('slow down');
      expect(files.map((entry) => entry.parentPath).some((path) => path.endsWith('agent%3Ahand-written'))).toBe(true);
      expectNoSecret(texts, [KEY, 'FAKE-KEY']);
      // And it replays, with no key and no server: the records are the recording's.
      await provider.close();
      const replayed = await cliAsync([...sweep, '-o', join(cassette, '..', 'replayed'), '--replay', cassette], {
        ANTHROPIC_API_KEY: '',
      });
      expect(replayed.status, replayed.stderr).toBe(0);
      const runs = (folder: string) => readFileSync(join(cassette, '..', folder, 'runs.jsonl'), 'utf8');
      expect(runs('replayed')).toBe(runs('recorded'));
    } finally {
      await provider.close();
    }
  }, 120_000);
});
