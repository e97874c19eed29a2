import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../agents/run-agent.js';
import { defineAgent } from '../agents/define-agent.js';
import { resolveScenarioSource } from '../sweep/scenario-source.js';
import { claimResultsFolder } from '../results/results-folder.js';
import { fillingDisk } from '../results/full-disk.test-helpers.js';
import { openFinishedSweep, readProgress, readRuns } from '../results/results-reader.js';
import { servedFailure } from './served-failure.js';
import { ServedResults } from './served-results.js';
import { SERVED_MODEL, ServedSweep, servedSweepIdentity } from './served-sweep.js';
import { ServeRefusal } from './serve-refusal.js';
import { UserInputError } from '../user-input-error.js';

const source = resolveScenarioSource('fetch-transform-write');
const options = { source, arm: 'agent:unit', seeds: { base: 1, count: 3 }, sweepSeed: 0 };

const refused = (action: () => unknown): { status: number; message: string } => {
  try {
    action();
  } catch (error) {
    if (error instanceof ServeRefusal) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('not refused');
};
const refusedLater = (pending: Promise<unknown>) =>
  pending.then(
    () => refused(() => undefined),
    (error) =>
      refused(() => {
        throw error;
      }),
  );

describe('ServedSweep', () => {
  it('refuses a seed range a double cannot count through, as run does, instead of spinning on the next seed', () => {
    const near = { ...options, seeds: { base: Number.MAX_SAFE_INTEGER - 1, count: 5 } };
    expect(() => new ServedSweep(near)).toThrow(UserInputError);
    const last = new ServedSweep({ ...options, seeds: { base: Number.MAX_SAFE_INTEGER - 3, count: 3 } });
    for (let i = 0; i < 3; i++) last.start();
    expect(refused(() => last.start()).status).toBe(409);
  });

  it('tells a request for a run serve ended for silence that serve ended it, and why', async () => {
    const sweep = new ServedSweep(options);
    const run = sweep.start(1);
    await sweep.end(run.id, { returned: servedFailure('AgentWentSilent', 'no request for 300 s') });
    expect(refused(() => sweep.run(run.id)).message).toContain('serve ended it as failed: no request for 300 s');
  });

  it('starts each seed once, next seed by default, and refuses what is not a run', async () => {
    const sweep = new ServedSweep(options);
    expect(sweep.start(2).id).toBe('run-2');
    expect(sweep.start().seed).toBe(1);
    expect(sweep.start().seed).toBe(3);
    expect(refused(() => sweep.start())).toMatchObject({ status: 409 });
    expect(refused(() => sweep.start(2))).toMatchObject({ status: 409 });
    expect(refused(() => sweep.start(4))).toMatchObject({ status: 400, message: expect.stringContaining('1..3') });
    expect(refused(() => sweep.run('run-9'))).toMatchObject({ status: 404 });
    await sweep.end('run-2', { returned: 'nothing done' });
    expect(refused(() => sweep.run('run-2'))).toMatchObject({ status: 409 });
    expect(refused(() => sweep.end('run-2', { returned: 'again' }))).toMatchObject({ status: 409 });
    expect(sweep.inFlight().map((run) => run.id)).toEqual(['run-1', 'run-3']);
  });

  it('judges an ended run on its world, as an in-process agent that did the same is judged', async () => {
    const sweep = new ServedSweep(options);
    const run = sweep.start(1);
    const text = await run.callTool('search_users', { query: 'Ada' });
    const record = await sweep.end(run.id, { returned: 'all done' });
    const same = defineAgent({
      name: 'unit',
      run: async ({ tools }) => {
        await tools.call('search_users', { query: 'Ada' }).catch(() => '');
        return 'all done';
      },
    });
    const { record: inProcess } = await runAgent({
      sweepSeed: 0,
      scenario: source.scenario,
      arm: 'agent:unit',
      seed: 1,
      agent: same,
      settings: {},
    });
    expect(text.kind === 'ok' || text.kind === 'failed').toBe(true);
    expect({ ...record, model: inProcess.model }).toEqual(inProcess);
    expect(record.model).toBe(SERVED_MODEL);
  });

  it('writes runs as they end and, once all have, the folder in seed order, readable as a finished sweep', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'spiralbench-served-')), 'out');
    const results = new ServedResults(
      claimResultsFolder(dir, 'sweep', { note: () => {} }),
      servedSweepIdentity(options),
    );
    const sweep = new ServedSweep({ ...options, results });
    try {
      for (const seed of [3, 1, 2]) sweep.start(seed);
      // Ended together, as a crowd of agents ends them: one sync stores them all.
      await Promise.all(
        [3, 1, 2].map((seed) => sweep.end(`run-${seed}`, { returned: { outcome: 'failed', reason: `stop ${seed}` } })),
      );
      expect(readProgress(dir)).toMatchObject({ runs_done: 3 });
      expect(sweep.complete).toBe(true);
      const { summary, traces, records } = sweep.summarize('out');
      results.complete(records, summary, traces);
    } finally {
      results.release();
    }
    const seeds: number[] = [];
    const finished = openFinishedSweep(dir);
    expect(finished.summary.model).toBe(SERVED_MODEL);
    return readRuns(finished, (run) => seeds.push(run.seed)).then(() => expect(seeds).toEqual([1, 2, 3]));
  });

  it('keeps a run open while its record cannot be stored (a full disk): its end is refused with 507 and can be retried', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'spiralbench-served-')), 'out');
    const disk = fillingDisk(0);
    const results = new ServedResults(
      claimResultsFolder(dir, 'sweep', { note: () => {}, fs: disk.fs }),
      servedSweepIdentity(options),
    );
    const ended: number[] = [];
    const sweep = new ServedSweep({ ...options, results, onEnded: (record) => ended.push(record.seed) });
    try {
      const run = sweep.start(1);
      expect(await refusedLater(sweep.end(run.id, { returned: 'all done' }))).toEqual({
        status: 507,
        message: expect.stringMatching(
          /^run run-1 has not ended: its record could not be stored \(could not write .*ENOSPC.*\); free space where .*out is and POST \/runs\/run-1\/end again$/,
        ),
      });
      expect([sweep.ended, ended, sweep.inFlight().map(({ id }) => id)]).toEqual([0, [], ['run-1']]);
      disk.setRoom(1_000_000);
      const record = await sweep.end(run.id, { returned: 'all done' });
      expect([sweep.ended, ended, sweep.inFlight()]).toEqual([1, [1], []]);
      expect(refused(() => sweep.end(run.id, { returned: 'again' }))).toMatchObject({ status: 409 });
      expect(readProgress(dir)).toMatchObject({ runs_done: 1 });
      expect(JSON.parse(readFileSync(join(dir, 'runs.jsonl'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(record)));
    } finally {
      results.release();
    }
  });

  it("records a served run's model calls into a cassette and replays them, failing a changed request", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spiralbench-served-cassette-'));
    const body = (system: string) =>
      JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system,
        messages: [{ role: 'user', content: source.scenario.prompt }],
      });
    const oneCall = async (mode: 'record' | 'replay', system: string) => {
      const sweep = new ServedSweep({ ...options, cassette: { mode, dir } });
      const run = sweep.start(1);
      const reply = await run.callModel('/v1/messages', body(system));
      return { reply, record: await sweep.end(run.id, { returned: 'done' }) };
    };
    const recorded = await oneCall('record', source.scenario.system);
    const replayed = await oneCall('replay', source.scenario.system);
    expect(replayed.reply).toEqual(recorded.reply);
    expect(replayed.record).toEqual(recorded.record);
    const changed = await oneCall('replay', 'Be brief.');
    expect(changed.reply.status).toBe(400);
    expect(changed.record.failure_reason).toMatchObject({
      error_class: 'CassetteMismatchError',
      message: expect.stringContaining('model call 1: the request differs from the recorded one at system'),
    });
  });
});
