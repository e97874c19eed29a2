import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, cliAsync, tempDir } from './cli-helpers.js';
import { startFakeProvider, type FakeProvider } from './fake-provider-server.js';

const KEY = 'sk-ant-api03-FAKE-KEY-for-failure-test-0123456789';
/** A loopback port that was just let go of: every call to it is refused at once. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

interface FailedRecord {
  readonly outcome: string;
  readonly model_calls: number;
  readonly failure_reason?: { readonly error_class: string; readonly status: number | null; readonly message: string };
}

const readRecords = (dir: string): FailedRecord[] =>
  readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as FailedRecord);

/** Lines of stderr that are not the cost banner printed before the sweep. */
const errorLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('spiralbench: '));

function realRun(out: string, baseUrl: string, extra: readonly string[] = []): string[] {
  return [
    'run',
    '-s',
    'lookup-readonly',
    '-a',
    'none,recover',
    '-n',
    '10',
    '--model',
    'claude-haiku-4-5',
    '--base-url',
    baseUrl,
    '--yes',
    '-o',
    out,
    ...extra,
  ];
}

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('a real sweep whose model never answers stops early, exit code 4', () => {
  it('stops after the first 3 runs when nothing listens at --base-url, naming the error and how to resume', async () => {
    const out = join(tempDir(), 'closed');
    const run = await cliAsync(realRun(out, await closedPort()), { ANTHROPIC_API_KEY: KEY });
    expect(run.status, run.stderr).toBe(4);
    const [line, ...more] = errorLines(run.stderr);
    expect(more).toEqual([]);
    expect(line).toMatch(
      /^spiralbench: the real model never answered: the first 3 runs failed before a single reply — APIConnectionError \(no HTTP status\): Connection error\. \(.*ECONNREFUSED.*\); \d+ of 20 runs are written to .*; resume with: spiralbench run .*--resume$/,
    );
    // The runs in flight finish and are written: at most --concurrency (4) past the third.
    const records = readRecords(out);
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records.length).toBeLessThanOrEqual(3 + 4);
    for (const record of records)
      expect(record.failure_reason).toMatchObject({ error_class: 'APIConnectionError', status: null });
    expect(existsSync(join(out, 'progress.json'))).toBe(true);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    expect(run.stdout).toBe('');
  });

  it('stops when the server refuses the key (401), with the key scrubbed from the reason it prints', async () => {
    provider = await startFakeProvider({
      scenario: 'lookup-readonly',
      fail: (_n, request) => ({
        status: 401,
        body: {
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key: ${request.headers.authorization ?? ''}` },
        },
      }),
    });
    const out = join(tempDir(), 'refused');
    const run = await cliAsync(realRun(out, provider.url), { ANTHROPIC_API_KEY: KEY });
    expect(run.status, run.stderr).toBe(4);
    expect(errorLines(run.stderr)).toEqual([
      expect.stringContaining(
        'the first 3 runs failed before a single reply — AuthenticationError (HTTP 401): invalid x-api-key: Bearer [redacted];',
      ),
    ]);
    // Authentication is not retried: one request a run, for the runs started before the stop.
    expect(provider.requests.length).toBeLessThanOrEqual(3 + 4);
    expect(readRecords(out)[0]?.failure_reason).toEqual({
      error_class: 'AuthenticationError',
      status: 401,
      message: 'invalid x-api-key: Bearer [redacted]',
    });
    for (const text of [run.stdout, run.stderr, readFileSync(join(out, 'runs.jsonl'), 'utf8')])
      expect(text).not.toContain('FAKE-KEY');
  });

  it('keeps the runs written before the stop, so --resume finishes the sweep once the model answers', async () => {
    // The first three requests are refused, one run each (--concurrency 1, the none arm first); then the key works.
    provider = await startFakeProvider({
      scenario: 'lookup-readonly',
      fail: (n) =>
        n < 3
          ? { status: 403, body: { type: 'error', error: { type: 'permission_error', message: 'not yet' } } }
          : undefined,
    });
    const out = join(tempDir(), 'resumed');
    const flags = realRun(out, provider.url, ['--concurrency', '1']);
    const stopped = await cliAsync(flags, { ANTHROPIC_API_KEY: KEY });
    expect(stopped.status, stopped.stderr).toBe(4);
    expect(errorLines(stopped.stderr)[0]).toContain(
      'PermissionDeniedError (HTTP 403): not yet; 3 of 20 runs are written',
    );
    const resumed = await cliAsync([...flags, '--resume'], { ANTHROPIC_API_KEY: KEY });
    expect(resumed.status, resumed.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(20);
    expect(records.slice(0, 3).map((record) => record.failure_reason?.status)).toEqual([403, 403, 403]);
    expect(records.slice(3).every((record) => record.outcome !== 'failed')).toBe(true);
  });

  it('does not stop a sweep whose model answered once, even when every run then fails', async () => {
    // The very first call is answered; every other is refused.
    provider = await startFakeProvider({
      scenario: 'lookup-readonly',
      fail: (n) =>
        n === 0 ? undefined : { status: 500, body: { type: 'error', error: { type: 'api_error', message: 'down' } } },
    });
    const out = join(tempDir(), 'answered');
    const run = await cliAsync(realRun(out, provider.url, ['-n', '2', '--concurrency', '1']), {
      ANTHROPIC_API_KEY: KEY,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(errorLines(run.stderr)).toEqual([]);
    const records = readRecords(out);
    expect(records).toHaveLength(4);
    expect(records[0]?.model_calls).toBe(1);
    expect(records.every((record) => record.outcome === 'failed')).toBe(true);
  });

  it('exits 4 at the end of a sweep too short to stop early when none of its runs got a reply', async () => {
    const out = join(tempDir(), 'short');
    // Port 9 (discard): fetch refuses it outright, as it does every port the Fetch standard bars.
    const run = await cliAsync(realRun(out, 'http://127.0.0.1:9', ['-a', 'none', '-n', '2']), {
      ANTHROPIC_API_KEY: KEY,
    });
    expect(run.status, run.stderr).toBe(4);
    expect(errorLines(run.stderr)).toEqual([
      expect.stringMatching(
        /^spiralbench: the real model never answered: all 2 runs failed before a single reply — APIConnectionError \(no HTTP status\): Connection error\. \(bad port\); the sweep is complete in .*: run it again once the model answers$/,
      ),
    ]);
    expect(readRecords(out)).toHaveLength(2);
  });
});

describe('a user and password in --base-url', () => {
  it('are refused before anything runs (fetch would send no request to such a URL), exit code 2', async () => {
    provider = await startFakeProvider({ scenario: 'lookup-readonly' });
    const withPassword = provider.url.replace('http://', 'http://proxy-user:FAKE-URL-PASSWORD-42@');
    const out = join(tempDir(), 'userinfo');
    const run = await cliAsync(realRun(out, withPassword, ['-a', 'none', '-n', '1']), { ANTHROPIC_API_KEY: KEY });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^error: --base-url: a URL without user:password@ \(the value is not repeated here\): Node's fetch sends no request to such a URL/m,
    );
    expect(run.stderr).not.toContain('FAKE-URL-PASSWORD');
    expect(existsSync(join(out, 'runs.jsonl'))).toBe(false);
  });
});

describe('replay says why a failed run failed', () => {
  it('prints the failure reason of the record under the outcome, and none for a run that did not fail', () => {
    const failed = cli(['replay', '--scenario', 'model-outage', '--arm', 'none', '--seed', '1']);
    expect(failed.status, failed.stderr).toBe(0);
    const lines = failed.stdout.split('\n');
    const outcome = lines.findIndex((line) => line.startsWith('outcome: failed'));
    expect(lines[outcome + 1]).toBe('failure_reason: OverloadedError (HTTP 529): Overloaded');
    const passed = cli(['replay', '--scenario', 'lookup-readonly', '--arm', 'none', '--seed', '1']);
    expect(passed.stdout).toMatch(/^outcome: /m);
    expect(passed.stdout).not.toContain('failure_reason');
  });
});

describe('a simulated sweep never stops early', () => {
  it('runs to the end with exit 0 when every model call fails by design (its faults are the experiment)', () => {
    const dir = tempDir();
    const yaml = readFileSync('scenarios/lookup-readonly.yaml', 'utf8')
      .replace(/^id: lookup-readonly$/m, 'id: lookup-unauthorized')
      .replace(/^plan:$/m, 'model_faults: { rates: { unauthorized: 1 } }\nplan:');
    const file = join(dir, 'lookup-unauthorized.yaml');
    writeFileSync(file, yaml);
    const out = join(dir, 'out');
    const run = cli(['run', '-s', file, '-a', 'none,recover', '-n', '5', '-w', '1', '-o', out]);
    expect(run.status, run.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(10);
    expect(records.every((record) => record.failure_reason?.error_class === 'AuthenticationError')).toBe(true);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });
});
