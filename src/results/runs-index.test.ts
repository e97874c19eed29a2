import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFinishedSweep, readRuns } from './results-reader.js';
import type { StoredRun } from './run-record-schema.js';
import { indexRuns, readFirstRuns, RunsChanged, type RunsIndex } from './runs-index.js';
import { looksIndexable } from './runs-index-range.js';
import { indexedRunSchema } from './run-record-schema.js';
import { DATA_FAULT_KINDS } from '../tools/tool-fault.js';
import { finishedFolder, fixtureRun, problem, variedFolder } from './sweep-fixture.test-helpers.js';

/** Every row of an index with its codes read back as text. */
function decoded(index: RunsIndex) {
  const { columns: c, strings } = index;
  return Array.from({ length: index.rows }, (_, row) => ({
    line: c.line[row],
    scenario: strings[c.scenario[row]!],
    arm: strings[c.arm[row]!],
    seed: c.seed[row],
    verdict: strings[c.verdict[row]!],
    outcome: strings[c.outcome[row]!],
    task: c.task[row] === -1 ? undefined : strings[c.task[row]!],
    member: c.member[row] === -1 ? undefined : c.member[row],
    tool_calls: c.toolCalls[row],
    model_calls: c.modelCalls[row],
    input_tokens: c.inputTokens[row],
    cost: c.cost[row],
    faults: strings[c.faults[row]!],
    events: strings[c.events[row]!],
  }));
}

/** The same rows from the schema-checked reader, the index's yardstick. */
async function expectedRows(dir: string) {
  const rows: ReturnType<typeof decoded> = [];
  await readRuns(openFinishedSweep(dir), (run, at) => {
    const met = (counts: Record<string, number> | undefined, prefix: string) =>
      Object.entries(counts ?? {}).flatMap(([kind, n]) => (n > 0 ? [prefix + kind] : []));
    rows.push({
      line: at.line,
      scenario: run.scenario,
      arm: run.arm,
      seed: run.seed,
      verdict: run.verdict,
      outcome: run.outcome,
      task: run.task,
      member: run.member,
      tool_calls: run.tool_calls,
      model_calls: run.model_calls,
      input_tokens: run.input_tokens,
      cost: run.cost_usd ?? Number.NEGATIVE_INFINITY,
      faults: [...met(run.faults, ''), ...met(run.model_faults, 'model:'), ...met(run.data_faults, 'data:')].join('\n'),
      events: met(run.events, '').join('\n'),
    });
  });
  return rows;
}

describe('indexRuns', () => {
  it('holds every indexed field of every run as the schema-checked reader reads it, however the file is split', async () => {
    const dir = variedFolder();
    // A blank line and Windows line ends are lines too: the numbers stay the file's.
    const file = join(dir, 'runs.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(17, 0, '');
    writeFileSync(file, lines.map((line, i) => (i % 9 === 4 && line !== '' ? `${line}\r` : line)).join('\n'));
    const expected = await expectedRows(dir);
    expect(expected).toHaveLength(160);
    for (const parts of [1, 2, 3, 7]) {
      const index = await indexRuns(openFinishedSweep(dir), undefined, { parts });
      expect(decoded(index), `${parts} parts`).toEqual(expected);
      // Each run is read back whole from where the index says its line is.
      const some = [0, 17, 18, 159];
      expect(index.read(some).map((run) => [run.seed, run.arm, run.scenario])).toEqual(
        some.map((row) => [expected[row]!.seed, expected[row]!.arm, expected[row]!.scenario]),
      );
    }
  });

  it('holds an ensemble member past 2^31 as it is', async () => {
    const dir = finishedFolder([fixtureRun({ seed: 1, member: 2 ** 31 + 5 })]);
    expect((await indexRuns(openFinishedSweep(dir))).columns.member[0]).toBe(2 ** 31 + 5);
  });

  it('reports the bytes it has read, up to the whole file', async () => {
    const dir = variedFolder();
    const seen: number[] = [];
    await indexRuns(openFinishedSweep(dir), (progress) => seen.push(progress.bytes / progress.size), { parts: 3 });
    expect(seen.at(-1)).toBe(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('names the line of a bad run by its number in the whole file, whichever part finds it', async () => {
    const dir = variedFolder();
    const file = join(dir, 'runs.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const spoil = (at: number, text: string) => {
      const copy = [...lines];
      copy[at - 1] = text;
      writeFileSync(file, copy.join('\n'));
    };
    const index = () => indexRuns(openFinishedSweep(dir), undefined, { parts: 3 });
    spoil(150, '{"sweep_seed": 0, "scenario": ');
    expect(await problem(index)).toMatch(/runs\.jsonl:150: one JSON run record per line; got/);
    spoil(120, lines[119]!.replace(/"tool_calls":\d+/, '"tool_calls":"many"'));
    expect(await problem(index)).toMatch(/runs\.jsonl:120: tool_calls: /);
    spoil(90, lines[89]!.replace('"sweep_seed":0', '"sweep_seed":3'));
    expect(await problem(index)).toMatch(/runs\.jsonl:90: sweep_seed: 0, the sweep seed in summary\.json; got 3/);
    spoil(45, lines[44]!.replace('"scenario":"s1"', '"scenario":"s9"'));
    expect(await problem(index)).toMatch(/runs\.jsonl:45: scenario: a \(scenario, arm\) cell of summary\.json; s9 · /);
    // A run recorded twice, in another part of the file than its first copy: said as readRuns says it.
    spoil(140, lines[9]!);
    const twice = await problem(index);
    expect(twice).toMatch(/runs\.jsonl:140: seed: a seed not already recorded for .*; seed \d+ is also on line 10/);
    expect(twice).toBe(await problem(() => readRuns(openFinishedSweep(dir))));
    // Cut short: counted against summary.json, as readRuns counts.
    writeFileSync(file, lines.slice(0, 100).join('\n'));
    const cut = await problem(index);
    expect(cut).toMatch(/160 runs, as summary\.json records; found 100: the file was cut short/);
    expect(cut).toBe(await problem(() => readRuns(openFinishedSweep(dir))));
  });

  it('reads the first pages from the file’s start, each run checked whole', async () => {
    const dir = variedFolder();
    const all: StoredRun[] = [];
    await readRuns(openFinishedSweep(dir), (run) => all.push(run));
    const sweep = openFinishedSweep(dir);
    expect(readFirstRuns(sweep, 0, 5)).toEqual(all.slice(0, 5));
    expect(readFirstRuns(sweep, 150, 50)).toEqual(all.slice(150));
    expect(readFirstRuns(sweep, 500, 5)).toEqual([]);
  });

  it("checks the indexed fields by the schema's rules exactly: the quick check and indexedRunSchema agree", () => {
    const dataFaults = Object.fromEntries(DATA_FAULT_KINDS.map((kind) => [kind, 1]));
    const { stale_read: _dropped, ...lacking } = dataFaults;
    const values: unknown[] = [
      undefined,
      null,
      -1,
      0,
      3,
      1.5,
      2 ** 60,
      '',
      'x',
      'success',
      'failure',
      'completed',
      'max_iterations',
      true,
      [],
      {},
      { a: 1 },
      { a: -1 },
      { a: 1.5 },
      { a: '1' },
      { a: null },
      dataFaults,
      lacking,
      { ...dataFaults, extra: 0 },
    ];
    const fields = Object.keys(indexedRunSchema.shape);
    let refused = 0;
    for (const field of fields)
      for (const value of values) {
        const run: Record<string, unknown> = JSON.parse(JSON.stringify(fixtureRun()));
        if (value === undefined) delete run[field];
        else run[field] = value;
        const schema = indexedRunSchema.safeParse(run).success;
        expect(looksIndexable(run), `${field}: ${JSON.stringify(value)}`).toBe(schema);
        if (!schema) refused += 1;
      }
    expect(refused).toBeGreaterThan(fields.length * 10);
  });

  it('never reads a run from a file changed since it was indexed, and says a missing file as unreadable', async () => {
    const dir = variedFolder();
    const file = join(dir, 'runs.jsonl');
    const index = await indexRuns(openFinishedSweep(dir));
    const text = readFileSync(file, 'utf8');
    // The same bytes in length, other verdicts: the offsets still fit, the runs are not the indexed ones.
    writeFileSync(
      file,
      text
        .replaceAll('"verdict":"success"', '"verdict":"failure"')
        .replace('"verdict":"failure"', '"verdict":"success"'),
    );
    expect(() => index.read([0, 1, 2, 3])).toThrow(RunsChanged);
    // The same size and modification time, and every line where it was: the run read is not the indexed one.
    const { mtime } = statSync(file);
    const rewrite = (changed: string) => {
      writeFileSync(file, changed);
      utimesSync(file, mtime, mtime);
    };
    rewrite(text);
    const fresh = await indexRuns(openFinishedSweep(dir));
    rewrite(text.replace('"tool_calls":10', '"tool_calls":99'));
    expect(() => fresh.read([...Array(fresh.rows).keys()])).toThrow(RunsChanged);
    // Lines moved: a run read across two of them is no JSON at all, and is said as the same change.
    const moved = text.split('\n');
    moved[0] = moved[0]!.replace('"model":"simulated"', '"model":"simulated!!"');
    moved[1] = moved[1]!.replace('"model":"simulated"', '"model":"simulat"');
    rewrite(moved.join('\n'));
    expect(() => fresh.read([1])).toThrow(RunsChanged);
    writeFileSync(file, text.slice(0, 1000));
    expect(() => index.read([100])).toThrow(/changed since \(open the sweep again to index it afresh\)/);
    rmSync(file);
    expect(() => index.read([0])).toThrow(/runs\.jsonl: a readable file \(ENOENT/);
    expect(() => index.checkFile()).toThrow(RunsChanged);
    await expect(indexRuns(openFinishedSweep(variedFolder()), undefined, { parts: 2 }).then(() => 'ok')).resolves.toBe(
      'ok',
    );
    const gone = openFinishedSweep(variedFolder());
    rmSync(gone.runsFile);
    expect(await problem(() => indexRuns(gone))).toMatch(/runs\.jsonl: a readable file \(ENOENT/);
    expect(() => readFirstRuns(gone, 0, 5)).toThrow(/a readable file/);
  });

  it('checks the first pages against the sweep as the index does', () => {
    const dir = variedFolder();
    const file = join(dir, 'runs.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"sweep_seed":0', '"sweep_seed":9');
    writeFileSync(file, lines.join('\n'));
    expect(readFirstRuns(openFinishedSweep(dir), 0, 2)).toHaveLength(2);
    expect(() => readFirstRuns(openFinishedSweep(dir), 0, 3)).toThrow(/runs\.jsonl:3: sweep_seed: 0, the sweep seed/);
  });
});
