import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GUARDS } from '../src/arms/arms.js';
import type { RunRecord } from '../src/results/run-record-schema.js';
import { cliAsync, tempDir } from './cli-helpers.js';

// Needs `npm run build` first (npm test does it): the CLI and `spiralbench/ai-sdk` run from dist/.

const recordsOf = (dir: string): RunRecord[] =>
  readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunRecord);

const folderFiles = (dir: string) =>
  Object.fromEntries(
    ['runs.jsonl', 'runs.csv', 'summary.json', 'traces.jsonl'].map((file) => [
      file,
      readFileSync(join(dir, file), 'utf8'),
    ]),
  );

const sum = (records: readonly RunRecord[], pick: (record: RunRecord) => number) =>
  records.reduce((total, record) => total + pick(record), 0);

describe('peer:vercel-ai+article: our safeguards as AI SDK middleware, beside the bare framework', () => {
  // One worker, then two in another process: the second is the same sweep run again, and
  // its bytes must not depend on the worker count either.
  const runs = [tempDir(), tempDir()];

  beforeAll(async () => {
    for (const [i, out] of runs.entries()) {
      const run = await cliAsync([
        'run',
        '-s',
        'fetch-transform-write',
        '-a',
        'peer:vercel-ai,peer:vercel-ai+article',
        '-n',
        '50',
        '-w',
        String(i + 1),
        '-o',
        out,
        '--json',
      ]);
      expect(run.status, run.stderr).toBe(0);
    }
  }, 300_000);

  it('gives the same bytes run after run and whatever the worker count', () => {
    expect(folderFiles(runs[1]!)).toEqual(folderFiles(runs[0]!));
  });

  it("counts the hosted guards' events in the guarded arm's records, and none in the bare arm's", () => {
    const records = recordsOf(runs[0]!);
    const bare = records.filter((record) => record.arm === 'peer:vercel-ai');
    const guarded = records.filter((record) => record.arm === 'peer:vercel-ai+article');
    expect([bare.length, guarded.length]).toEqual([50, 50]);
    expect(sum(bare, (record) => Object.values(record.events).reduce((a, b) => a + b, 0))).toBe(0);
    const retries = sum(guarded, (record) => record.events['agent.tool.retry']);
    expect(retries).toBeGreaterThan(0);
    expect(sum(guarded, (record) => record.tool_retries)).toBe(retries);
    expect(sum(guarded, (record) => record.events['agent.repeat.blocked'])).toBeGreaterThan(0);
    // Retries ran the tools again: executions exceed the calls the model wrote in some runs.
    expect(guarded.some((record) => record.tool_executions > record.tool_calls)).toBe(true);
    // The settings say which safeguards the arm ran with.
    const summary = JSON.parse(readFileSync(join(runs[0]!, 'summary.json'), 'utf8')) as {
      arms: Array<{ name: string; peer?: Record<string, unknown> }>;
    };
    expect(summary.arms.find((arm) => arm.name === 'peer:vercel-ai+article')?.peer).toMatchObject({
      peer: 'vercel-ai',
      guards: 'article',
    });
    expect(summary.arms.find((arm) => arm.name === 'peer:vercel-ai')?.peer).not.toHaveProperty('guards');
  });
});

describe("a user's generateText agent importing spiralbench/ai-sdk by package name", () => {
  const out = tempDir();
  const agent = fileURLToPath(new URL('./fixtures/agents/ai-sdk-guarded.mjs', import.meta.url));

  beforeAll(async () => {
    // Write verification runs reads of its own on these scenarios' writes, which no framework
    // can host: the hosted `all` is held to our `all` without it.
    const armsFile = join(tempDir(), 'arms.json');
    const unverified = DEFAULT_GUARDS.filter((setting) => setting.guard !== 'verify');
    writeFileSync(armsFile, JSON.stringify({ arms: [{ name: 'all-unverified', guards: unverified }] }));
    const run = await cliAsync([
      'run',
      '-s',
      'fetch-transform-write,refund-server-errors',
      '-a',
      'article,all-unverified,peer:vercel-ai+article,peer:vercel-ai+all',
      '--arms-file',
      armsFile,
      '--agent',
      agent,
      '-n',
      '25',
      '-o',
      out,
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
  }, 300_000);

  it("takes the same decisions as our loop's arms: seed for seed, the same calls, tokens, time and verdict", () => {
    const records = recordsOf(out);
    const key = (record: RunRecord) => `${record.scenario}#${record.seed}`;
    const ours = (arm: string) =>
      new Map(records.filter((record) => record.arm === arm).map((record) => [key(record), record]));
    // refetch_calls: the harness sees a framework's calls only where they reach the tools, so a
    // repeat the guard answers (our loop counts it, as the model did ask again) is not among them.
    // Costs and the prompt cache's counts: our loop marks its requests for the cache, the
    // framework sends its own unmarked, so the same tokens cost less in our loop's runs.
    const same = (record: RunRecord, sized: boolean) => {
      const {
        arm: _arm,
        model: _model,
        events: _events,
        refetch_calls: _refetch,
        cost_usd: _cost,
        cache_read_input_tokens: _read,
        cache_creation_input_tokens: _written,
        ...rest
      } = record;
      if (sized) return rest;
      const { input_tokens: _in, virtual_ms: _ms, ...unsized } = rest;
      return unsized;
    };
    for (const [arm, preset] of [
      ['peer:vercel-ai+article', 'article'],
      ['agent:ai-sdk-guarded', 'article'],
      // Every other guard of `all` the AI SDK cannot host takes no decision on these two
      // scenarios; tool-output isolation adds its note and marks to our loop's requests, so
      // only the sizes differ (input tokens, their cost, the model's time to read them).
      ['peer:vercel-ai+all', 'all-unverified'],
    ] as const) {
      const loop = ours(preset);
      const theirs = records.filter((record) => record.arm === arm);
      expect(theirs).toHaveLength(50);
      const sized = preset === 'article';
      for (const record of theirs) {
        const mine = loop.get(key(record))!;
        expect(same(record, sized), `${arm} ${key(record)}`).toEqual(same(mine, sized));
        if (!sized) expect(mine.input_tokens).toBeGreaterThan(record.input_tokens);
        // Guard events alike; our loop also counts its own start and end.
        const { 'agent_run.started': _s, 'agent_run.completed': _c, ...guardEvents } = mine.events;
        expect(record.events).toMatchObject(guardEvents);
      }
    }
  });
});
