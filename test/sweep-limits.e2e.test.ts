import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type CliResult, tempDir } from './cli-helpers.js';

/**
 * The CLI under a time bound and a small heap: a sweep that hangs is killed (status
 * null) and one that plans too much dies of V8's out-of-memory (not status 2), so
 * either shows as a failed expectation instead of a stuck or swapping machine.
 */
function boundedCli(args: readonly string[], seconds = 20): CliResult {
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const result = spawnSync(process.execPath, ['--max-old-space-size=192', BIN, ...args], {
    encoding: 'utf8',
    env,
    timeout: seconds * 1000,
    killSignal: 'SIGKILL',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const RUN = ['run', '--scenario', 'fetch-transform-write', '--arms', 'none'];
const MAX_SAFE = String(Number.MAX_SAFE_INTEGER);

describe('run seeds stay exact', () => {
  it('refuses a first seed so high that seed + count passes 2^53 - 1, naming the limit', () => {
    const result = boundedCli([...RUN, '--seed', String(Number.MAX_SAFE_INTEGER - 1), '-n', '3', '-o', tempDir()]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `error: --first-seed: a first seed with --first-seed + --seeds at most ${MAX_SAFE} (2^53 - 1, so every run seed is exact); got ${Number.MAX_SAFE_INTEGER - 1} + 3\n`,
    );
  });

  it('ends at once for the largest safe seed instead of looping forever on it', () => {
    const result = boundedCli([...RUN, '--seed', MAX_SAFE, '-n', '3', '-o', tempDir()]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: --first-seed: .* at most 9007199254740991 .*; got 9007199254740991 \+ 3\n$/);
  });

  it('accepts the last exact range: seed + count = 2^53 - 1', () => {
    const out = tempDir();
    const result = boundedCli([...RUN, '--seed', String(Number.MAX_SAFE_INTEGER - 3), '-n', '3', '-o', out]);
    expect(result.status, result.stderr).toBe(0);
    const seeds = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { seed: number }).seed);
    expect(seeds).toEqual([Number.MAX_SAFE_INTEGER - 3, Number.MAX_SAFE_INTEGER - 2, Number.MAX_SAFE_INTEGER - 1]);
  });
});

describe('run sizes stay sane', () => {
  it('refuses -n past a billion runs a cell with a clear message, not an out-of-memory crash', () => {
    const result = boundedCli([...RUN, '--seed', '0', '-n', MAX_SAFE, '-o', tempDir()]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^error: option '-n, --seeds <count>' argument '9007199254740991' is invalid\. expected a whole number from 1 to 1000000000 \(runs per scenario and arm\)\./,
    );
  });

  it('refuses more worker threads than 4 a core, naming the cap', () => {
    const cap = 4 * availableParallelism();
    const result = boundedCli(['run', '--scenario', 'no-such-scenario', '-w', '1000', '-o', tempDir()]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: option '-w, --workers <n>' argument '1000' is invalid\\. expected a whole number from 1 to ${cap} \\(4 per core, ${availableParallelism()} cores here\\)\\.`,
      ),
    );
  });

  it('starts a billion-run cell at once (chunks are planned as they are reached) and stops on Ctrl-C', async () => {
    const dir = join(tempDir(), 'sweep');
    mkdirSync(dir, { recursive: true });
    const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=192', BIN, ...RUN, '-n', '1000000000', '-w', '1', '-o', dir],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    let sent = false;
    const watcher = watch(dir, () => {
      if (sent || !existsSync(join(dir, 'progress.json'))) return;
      sent = true;
      child.kill('SIGINT');
    });
    // Bounded: a sweep that ignored the signal would otherwise run for days.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((done) => child.on('exit', (exitCode) => done(exitCode)));
    clearTimeout(guard);
    watcher.close();
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: \d+ of 1000000000 runs are written/);
  });
});

describe('input files are read with a bound', () => {
  it('refuses a FIFO at once instead of waiting on it forever', () => {
    const fifo = join(tempDir(), 'scenario.yaml');
    execFileSync('mkfifo', [fifo]);
    const result = boundedCli(['validate', fifo]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(`error: ${fifo}: a regular file (this is a FIFO)\n`);
  });

  it('refuses a device instead of reading it without end', () => {
    const result = boundedCli(['validate', '/dev/zero']);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe('error: /dev/zero: a regular file (this is a character device)\n');
  });

  it('refuses a scenario file over 4 MiB, naming the cap', () => {
    const file = join(tempDir(), 'big.yaml');
    writeFileSync(file, `# ${'x'.repeat(78)}\n`.repeat(53_000));
    const result = boundedCli(['validate', file]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(`error: ${file}: a file of at most 4 MiB (4194304 bytes); this one is larger\n`);
  });

  it('refuses an arms file over 4 MiB, naming the cap', () => {
    const file = join(tempDir(), 'arms.yaml');
    writeFileSync(file, `# ${'x'.repeat(78)}\n`.repeat(53_000));
    const result = boundedCli([...RUN, '--arms-file', file, '-n', '1', '-o', tempDir()]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(`error: ${file}: a file of at most 4 MiB (4194304 bytes); this one is larger\n`);
  });
});

describe('every command that takes seeds takes the bounds run takes', () => {
  const past = ['--first-seed', String(Number.MAX_SAFE_INTEGER - 1), '-n', '5'];
  const message = `error: --first-seed: a first seed with --first-seed + --seeds at most ${MAX_SAFE} (2^53 - 1, so every run seed is exact); got ${Number.MAX_SAFE_INTEGER - 1} + 5\n`;

  it('serve refuses a seed range past 2^53 - 1 before it listens, instead of spinning on a seed', () => {
    const result = boundedCli(['serve', '-s', 'fetch-transform-write', ...past, '--port', '0', '-o', tempDir()]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(message);
  });

  it.each([
    ['crash-resume', ['crash-resume', '-s', 'fetch-transform-write', '-o']],
    ['live-check', ['live-check', '-s', 'fetch-transform-write', '-o']],
  ])('%s refuses a seed range past 2^53 - 1 and -n past a billion', (_name, command) => {
    const high = boundedCli([...command, tempDir(), ...past]);
    expect(high.status, high.stderr).toBe(2);
    expect(high.stderr).toBe(message);
    const many = boundedCli([...command, tempDir(), '-n', MAX_SAFE]);
    expect(many.status, many.stderr).toBe(2);
    expect(many.stderr).toMatch(
      /argument '9007199254740991' is invalid\. expected a whole number from 1 to 1000000000/,
    );
  });
});
