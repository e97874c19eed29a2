import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliAsync, tempDir } from './cli-helpers.js';

// model-outage injects 529s and 500s (recovered by retries and a fallback model);
// fetch-transform-write is the reference task.
const SCENARIOS = 'fetch-transform-write,model-outage';
const sweep = (out: string, ...more: string[]) =>
  cliAsync(['run', '-s', SCENARIOS, '-a', 'none,all', '-n', '12', '-o', out, '--json', ...more]);

describe('cassettes: run --record, then --replay with no model', () => {
  const dir = tempDir();
  const cassette = join(dir, 'cassette');

  beforeAll(async () => {
    const recorded = await sweep(join(dir, 'recorded'), '--record', cassette);
    expect(recorded.status, recorded.stderr).toBe(0);
  }, 120_000);

  it('replays the sweep byte for byte: runs, summary and every injected model fault', async () => {
    const replayed = await sweep(join(dir, 'replayed'), '--replay', cassette);
    expect(replayed.status, replayed.stderr).toBe(0);
    for (const file of ['runs.jsonl', 'summary.json'])
      expect(readFileSync(join(dir, 'replayed', file), 'utf8')).toBe(readFileSync(join(dir, 'recorded', file), 'utf8'));
    const runs = readFileSync(join(dir, 'replayed', 'runs.jsonl'), 'utf8');
    // The faults came back from the cassette, not from an endpoint: the runs met some.
    expect(runs).toMatch(/"overloaded":[1-9]/);
    expect(readdirSync(join(cassette, 'model-outage', 'all'))).toHaveLength(12);
  }, 120_000);

  it('fails the runs whose requests changed, naming the run, the call and the part that differs, and exits 1', async () => {
    const scenario = readFileSync(new URL('../scenarios/fetch-transform-write.yaml', import.meta.url), 'utf8');
    const edited = join(dir, 'edited');
    const path = join(tempDir(), 'fetch-transform-write.yaml');
    writeFileSync(path, scenario.replace('You are a data-pipeline agent', 'You are a careful data-pipeline agent'));
    const replayed = await cliAsync(['run', '-s', path, '-a', 'none', '-n', '2', '-o', edited, '--replay', cassette]);
    expect(replayed.status).toBe(1);
    expect(replayed.stderr).toContain(
      'replay: 2 of 2 runs asked for what the cassette does not hold, and failed; the first: fetch-transform-write · none · seed 1, model call 1: the request differs from the recorded one at system',
    );
  }, 60_000);

  it('with --record-missing, sends the calls the cassette lacks to the live model and records the runs again', async () => {
    const scenario = readFileSync(new URL('../scenarios/fetch-transform-write.yaml', import.meta.url), 'utf8');
    const path = join(tempDir(), 'fetch-transform-write.yaml');
    writeFileSync(path, scenario.replace('You are a data-pipeline agent', 'You are a careful data-pipeline agent'));
    const topUp = join(tempDir(), 'top-up');
    const base = ['run', '-s', path, '-a', 'none', '-n', '3'];
    // A folder of its own, recorded from the original scenario, to be topped up.
    const recorded = await cliAsync([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'none',
      '-n',
      '3',
      '-o',
      join(topUp, 'first'),
      '--record',
      topUp,
    ]);
    expect(recorded.status, recorded.stderr).toBe(0);
    const toppedUp = await cliAsync([...base, '-o', join(topUp, 'missing'), '--replay', topUp, '--record-missing']);
    expect(toppedUp.status, toppedUp.stderr).toBe(0);
    const direct = await cliAsync([...base, '-o', join(topUp, 'direct')]);
    expect(direct.status, direct.stderr).toBe(0);
    const runs = (folder: string) => readFileSync(join(topUp, folder, 'runs.jsonl'), 'utf8');
    expect(runs('missing')).toBe(runs('direct'));
    // Recorded again: a plain replay of the edited scenario now holds every call.
    const replayed = await cliAsync([...base, '-o', join(topUp, 'replayed'), '--replay', topUp]);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(runs('replayed')).toBe(runs('direct'));
    const alone = await cliAsync([...base, '-o', join(topUp, 'alone'), '--record-missing']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--record-missing: with --replay');
  }, 120_000);

  it('refuses what a cassette cannot hold, and a folder that holds none, before any run', async () => {
    const cases: Array<[string[], string]> = [
      [['-a', 'peer:vercel-ai', '--record', join(dir, 'peer')], "--record: arms of spiralbench's own loop only"],
      [['--replay', join(dir, 'nothing')], 'holds no cassette.json'],
      [['--replay', cassette, '--model', 'claude-sonnet-4-5'], '--replay: no model flags'],
      [['--record', cassette, '--replay', cassette], '--replay: left out with --record'],
      [['--record', cassette, '--via', 'sdk'], "holds no other model's cassette"],
    ];
    for (const [flags, message] of cases) {
      const result = await cliAsync([
        'run',
        '-s',
        'fetch-transform-write',
        '-n',
        '2',
        '-o',
        join(dir, 'refused'),
        ...flags,
      ]);
      expect(result.status, flags.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  }, 60_000);
});
