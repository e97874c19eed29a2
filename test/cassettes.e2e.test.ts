import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('records streamed calls as their events, stream cuts included, and replays them byte for byte', async () => {
    const scenario = readFileSync(new URL('../scenarios/fetch-transform-write.yaml', import.meta.url), 'utf8');
    const path = join(tempDir(), 'fetch-transform-write.yaml');
    writeFileSync(path, scenario.replace('\ncheck:', '\nmodel_faults:\n  rates: { stream_cut: 0.2 }\ncheck:'));
    const streamed = join(tempDir(), 'streamed');
    const base = ['run', '-s', path, '-a', 'none,article', '-n', '8', '--stream', '--json'];
    const recorded = await cliAsync([...base, '-o', join(streamed, 'recorded'), '--record', streamed]);
    expect(recorded.status, recorded.stderr).toBe(0);
    const replayed = await cliAsync([...base, '-o', join(streamed, 'replayed'), '--replay', streamed]);
    expect(replayed.status, replayed.stderr).toBe(0);
    const runs = (folder: string) => readFileSync(join(streamed, folder, 'runs.jsonl'), 'utf8');
    expect(runs('replayed')).toBe(runs('recorded'));
    expect(runs('replayed')).toMatch(/"stream_cut":[1-9]/);
    // Delivered whole, the recorded calls are not the ones the run asks for.
    const whole = await cliAsync([
      ...base.filter((flag) => flag !== '--stream'),
      '-o',
      join(streamed, 'whole'),
      '--replay',
      streamed,
    ]);
    expect(whole.status).toBe(1);
    expect(whole.stderr).toContain('model call 1: the call was recorded streamed; replay with --stream');
  }, 120_000);

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

describe('cassettes: agents and frameworks record and replay on the wire', () => {
  const dir = tempDir();
  const cassette = join(dir, 'cassette');
  const agent = fileURLToPath(new URL('./fixtures/agents/hand-written-loop.ts', import.meta.url));
  // A user's agent on the Anthropic SDK, a framework on the Messages API, one on Chat Completions.
  const agentSweep = (scenario: string, out: string, ...more: string[]) =>
    cliAsync([
      'run',
      '-s',
      scenario,
      '-a',
      'peer:vercel-ai,peer:openai-agents',
      '--agent',
      agent,
      '-n',
      '4',
      '-o',
      out,
      '--json',
      ...more,
    ]);

  beforeAll(async () => {
    const recorded = await agentSweep('fetch-transform-write', join(dir, 'recorded'), '--record', cassette);
    expect(recorded.status, recorded.stderr).toBe(0);
  }, 180_000);

  it('replays every agent run byte for byte with no model behind it', async () => {
    const replayed = await agentSweep('fetch-transform-write', join(dir, 'replayed'), '--replay', cassette);
    expect(replayed.status, replayed.stderr).toBe(0);
    for (const file of ['runs.jsonl', 'summary.json'])
      expect(readFileSync(join(dir, 'replayed', file), 'utf8')).toBe(readFileSync(join(dir, 'recorded', file), 'utf8'));
    expect(readdirSync(join(cassette, 'fetch-transform-write', encodeURIComponent('peer:openai-agents')))).toHaveLength(
      4,
    );
  }, 180_000);

  it("fails an agent's run whose request changed, naming the call and the part, whatever the agent made of it", async () => {
    const scenario = readFileSync(new URL('../scenarios/fetch-transform-write.yaml', import.meta.url), 'utf8');
    const path = join(tempDir(), 'fetch-transform-write.yaml');
    writeFileSync(path, scenario.replace('You are a data-pipeline agent', 'You are a careful data-pipeline agent'));
    const replayed = await agentSweep(path, join(dir, 'edited'), '--replay', cassette);
    expect(replayed.status).toBe(1);
    expect(replayed.stderr).toContain(
      'replay: 12 of 12 runs asked for what the cassette does not hold, and failed; the first: fetch-transform-write · peer:vercel-ai · seed 1, model call 1: the request differs from the recorded one at system',
    );
    const reasons = readFileSync(join(dir, 'edited', 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { arm: string; failure_reason: { error_class: string; message: string } });
    // Chat Completions carries the system prompt as its first message.
    expect(reasons.find((run) => run.arm === 'peer:openai-agents')?.failure_reason.message).toContain(
      'model call 1: the request differs from the recorded one at messages[0]',
    );
    expect(new Set(reasons.map((run) => run.failure_reason.error_class))).toEqual(new Set(['CassetteMismatchError']));
  }, 180_000);
});
