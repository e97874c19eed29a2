import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliAsync, tempDir } from './cli-helpers.js';
import { startFakeProvider, type FakeProvider } from './fake-provider-server.js';

const KEY = 'sk-ant-spend-limit-test';

describe('run --max-cost holds a real sweep while it runs', () => {
  let provider: FakeProvider | undefined;
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  it('stops within one request of the limit (exit 5), keeps only whole runs, and a resume finishes the sweep', async () => {
    provider = await startFakeProvider({ scenario: 'fetch-transform-write' });
    const out = join(tempDir(), 'capped');
    const args = ['run', '-s', 'fetch-transform-write', '-a', 'none', '-n', '12', '--model', 'claude-sonnet-4-5'];
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: provider.url };
    const capped = await cliAsync([...args, '--concurrency', '1', '-y', '--max-cost', '0.2', '-o', out], env);
    expect(capped.status, capped.stderr).toBe(5);
    const stopped =
      /stopped at --max-cost \$0\.200: \$([\d.]+) spent .*; (\d+) of 12 runs are written to .*; a resume may spend its --max-cost again: .*--resume/.exec(
        capped.stderr,
      );
    expect(stopped, capped.stderr).not.toBeNull();
    const written = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(written).toHaveLength(Number(stopped![2]));
    expect(written.length).toBeLessThan(12);
    // No run was cut and recorded as a failure: the cut one is left out.
    expect(written.every((run) => run.outcome !== 'failed')).toBe(true);
    const recorded = written.reduce((sum, run) => sum + run.cost_usd, 0);
    // What the sweep says it spent: at least the limit, the written runs and the cut one's calls.
    expect(Number(stopped![1])).toBeGreaterThanOrEqual(0.2 - 0.0005);
    expect(Number(stopped![1])).toBeGreaterThanOrEqual(recorded - 0.0005);
    // Within one request: the priciest request of a written run is a bound for the last one.
    const perCall = Math.max(...written.map((run) => run.cost_usd / run.model_calls)) * 4;
    expect(Number(stopped![1]) - 0.2).toBeLessThan(perCall);
    // The progress lines carry the spend.
    expect(capped.stderr).toMatch(/\d+\/12 runs · \$[\d.]+ spent/);

    // Resumed with the prompt cache turned off, it would mix two sweeps: refused, naming the difference.
    const mixed = await cliAsync([...args, '-y', '--no-prompt-cache', '-o', out, '--resume'], env);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toContain('sweep.prompt_cache');

    const resumed = await cliAsync(
      [...args, '--concurrency', '1', '-y', '--max-cost', '50', '-o', out, '--resume'],
      env,
    );
    expect(resumed.status, resumed.stderr).toBe(0);
    const all = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(all.map((run) => run.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(resumed.stderr).toMatch(/spent \$[\d.]+ of --max-cost \$50\.00/);
  }, 120_000);
});
