import { createServer, type Server } from 'node:net';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { BIN, cli, type CliResult, tempDir } from './cli-helpers.js';
import { request, startServe } from './serve-helpers.js';

/** Every file in `dir` with its bytes, to tell whether anything in the folder changed. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

/** A finished served sweep of 2 seeds, in a fresh folder. */
async function finishedServedFolder(): Promise<string> {
  const out = join(tempDir('spiralbench-serve-start-'), 'served');
  const serve = await startServe(['-s', 'fetch-transform-write', '-n', '2', '-o', out]);
  for (const seed of [1, 2]) {
    await request(`${serve.about.url}/runs`, { seed }, 'unused');
    await request(`${serve.about.url}/runs/run-${seed}/end`, { outcome: 'failed', reason: 'test' }, 'unused');
  }
  expect((await serve.exited).code).toBe(0);
  return out;
}

/** `spiralbench serve` expected to refuse at once; a serve that starts instead is killed rather than waited on forever. */
function refused(args: readonly string[]): CliResult {
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const result = spawnSync(process.execPath, [BIN, 'serve', ...args], { encoding: 'utf8', env, timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let occupied: Server | undefined;

/** A port something else listens on. */
async function busyPort(): Promise<number> {
  occupied = createServer();
  await new Promise<void>((resolve) => occupied!.listen(0, '127.0.0.1', resolve));
  return (occupied.address() as { port: number }).port;
}

afterEach(async () => {
  await new Promise((resolve) => (occupied === undefined ? resolve(undefined) : occupied.close(resolve)));
  occupied = undefined;
});

describe('spiralbench serve: starting', () => {
  it('a port in use is refused naming --port (exit 2), and the finished sweep in --out is left whole', async () => {
    const out = await finishedServedFolder();
    const before = snapshot(out);
    const port = await busyPort();
    const served = cli([
      'serve',
      '-s',
      'fetch-transform-write',
      '-n',
      '2',
      '-o',
      out,
      '--port',
      String(port),
      '--discard',
    ]);
    expect(served.status, served.stderr).toBe(2);
    expect(served.stderr).toContain('--port');
    expect(served.stderr).toContain('--port 0');
    expect(served.stderr).not.toContain('unexpected error');
    expect(snapshot(out)).toEqual(before);
    expect(cli(['report', out]).status).toBe(0);
  });

  it('refuses a folder holding a finished sweep unless --overwrite, changing nothing', async () => {
    const out = await finishedServedFolder();
    const before = snapshot(out);
    const again = refused(['-s', 'fetch-transform-write', '-n', '2', '-o', out, '--port', '0']);
    expect(again.status, again.stderr).toBe(2);
    expect(again.stderr).toContain('finished sweep');
    expect(again.stderr).toContain('--overwrite');
    expect(again.stderr).not.toContain('--resume');
    expect(snapshot(out)).toEqual(before);
  });

  it('stopped before any run ended, leaves the folder as it was and says so', async () => {
    const out = await finishedServedFolder();
    const copy = join(tempDir('spiralbench-serve-start-'), 'copy');
    cpSync(out, copy, { recursive: true });
    const before = snapshot(copy);
    const serve = await startServe(['-s', 'fetch-transform-write', '-n', '2', '-o', copy, '--overwrite']);
    serve.child.kill('SIGINT');
    const { code, stderr } = await serve.exited;
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('stopped before any run ended');
    expect(stderr).not.toContain('progress.json');
    expect(snapshot(copy)).toEqual(before);
    // A folder serve made for the sweep goes again.
    const fresh = join(tempDir('spiralbench-serve-start-'), 'fresh');
    const other = await startServe(['-s', 'fetch-transform-write', '-n', '2', '-o', fresh]);
    other.child.kill('SIGINT');
    expect((await other.exited).code).toBe(130);
    expect(existsSync(fresh)).toBe(false);
  });

  it.each([
    [['--port', '99999'], '--port'],
    [['--host', '10.255.255.1', '--port', '0'], '--host'],
  ])('%j is a usage error naming the flag (exit 2), not an unexpected one', (flags, flag) => {
    const out = join(tempDir('spiralbench-serve-start-'), 'served');
    const served = refused(['-s', 'fetch-transform-write', '-n', '2', '-o', out, ...flags]);
    expect(served.status, served.stderr).toBe(2);
    expect(served.stderr).toContain(flag);
    expect(served.stderr).not.toContain('unexpected error');
    expect(existsSync(out)).toBe(false);
  });

  it('says on stderr how many seeds were never started when nothing is heard for --idle-timeout', async () => {
    const out = join(tempDir('spiralbench-serve-start-'), 'served');
    const serve = await startServe(['-s', 'fetch-transform-write', '-n', '3', '-o', out, '--idle-timeout', '1']);
    await request(`${serve.about.url}/runs`, { seed: 1 }, 'unused');
    await request(`${serve.about.url}/runs/run-1/end`, { outcome: 'failed', reason: 'test' }, 'unused');
    expect(await serve.stderrLine('waiting:')).toContain('2 of 3 seeds not started yet');
    serve.child.kill('SIGINT');
    expect((await serve.exited).code).toBe(130);
  });

  // /dev/full answers every write with ENOSPC, as a full disk does (see exit-codes.e2e.test.ts).
  it.skipIf(!existsSync('/dev/full'))(
    'on a full disk answers /end with 507, keeps the run open, and once it times out exits 74 naming the file',
    async () => {
      const out = join(tempDir('spiralbench-serve-start-'), 'served');
      mkdirSync(out);
      symlinkSync('/dev/full', join(out, 'runs.jsonl'));
      const serve = await startServe(['-s', 'fetch-transform-write', '-n', '2', '-o', out, '--idle-timeout', '1']);
      await request(`${serve.about.url}/runs`, { seed: 1 }, 'unused');
      const end = await request(`${serve.about.url}/runs/run-1/end`, { outcome: 'failed', reason: 'test' }, 'unused');
      expect(end.status, end.text).toBe(507);
      expect(JSON.parse(end.text).error.message).toMatch(/^run run-1 has not ended: its record could not be stored/);
      const { code, stderr } = await serve.exited;
      expect(code, stderr).toBe(74);
      expect(stderr).toContain(
        `spiralbench: disk full: could not write ${join(out, 'runs.jsonl')} (ENOSPC: no space left on device, write); what was there before is unchanged. Serve stopped: 0 of 2 runs ended and are written to ${out}`,
      );
      expect(stderr).not.toContain('unexpected error');
    },
  );
});

describe('spiralbench serve: who may drive it', () => {
  /** The reproduction: a simple cross-origin POST, as a web page (or a DNS-rebound one) sends it. */
  async function attack(url: string, headers: Record<string, string>): Promise<number> {
    const { request: httpRequest } = await import('node:http');
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url}/runs`, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{"seed":1}');
    });
  }

  it('refuses a foreign Host, a browser Origin and a text/plain body; warns loudly when open to the network', async () => {
    const out = join(tempDir('spiralbench-serve-start-'), 'served');
    const serve = await startServe([
      '-s',
      'fetch-transform-write',
      '-n',
      '1',
      '-o',
      out,
      '--host',
      '0.0.0.0',
      '--allow-origin',
      'http://localhost:5173',
    ]);
    // Listening on every interface, serve prints URLs an agent on this machine can use as they are.
    const { url } = serve.about;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { port } = new URL(url);
    expect(await serve.stderrLine('WARNING')).toMatch(/^WARNING: serve listens on 0\.0\.0\.0, not loopback/);
    expect(await attack(url, { 'content-type': 'text/plain', host: `evil.example:${port}` })).toBe(403);
    expect(await attack(url, { 'content-type': 'text/plain' })).toBe(415);
    expect(await attack(url, { 'content-type': 'application/json', origin: 'https://evil.example' })).toBe(403);
    expect(await attack(url, { 'content-type': 'application/json', origin: 'http://localhost:5173' })).toBe(201);
    await request(`${url}/runs/run-1/end`, { outcome: 'failed', reason: 'test' }, 'unused');
    expect((await serve.exited).code).toBe(0);
  });
});
