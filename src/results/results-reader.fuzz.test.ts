import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/fuzz-runs.js';
import { UserInputError } from '../user-input-error.js';
import { openFinishedSweep, readMeta, readProgress, readRuns, readTraces } from './results-reader.js';
import { parseRunLine } from './run-record-schema.js';
import { fixtureRun, fixtureSummary } from './sweep-fixture.test-helpers.js';

// Every reader of a results file, fed anything: random bytes, cut-off lines, valid-looking
// JSON with a field of the wrong type or a huge number. Each ends in a valid object or a
// UserInputError naming the file (and the line or field) — never another exception.

const RUN = fixtureRun();
const SUMMARY = fixtureSummary([{ scenario: 's1', arm: 'none', runs: 2 }]);
const TRACE = {
  scenario: 's1',
  arm: 'none',
  seed: 1,
  sweep_seed: 0,
  reasons: ['failure'],
  replay: 'spiralbench replay --scenario s1 --arm none --seed 1',
  record: RUN,
  prompt: 'do the task',
  events: [{ type: 'agent_run.started', at: 0 }],
  assistant_texts: ['done'],
  events_omitted: 0,
  outbox: [{ key: 'user-1', value: { name: 'Ada' } }],
};
const META = {
  format_version: 1,
  spiralbench: '0.1.0',
  node: 'v20.0.0',
  git_commit: null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
  wall_seconds: 1,
  workers: 2,
  command: 'spiralbench run',
};
const PROGRESS = {
  format_version: 1,
  spiralbench: '0.1.0',
  sweep: {
    scenarios: [{ id: 's1', hash: 'h' }],
    arms: [{ name: 'none', guards: [{ guard: 'budget', maxToolCalls: 15 }] }],
    seeds: { base: 1, count: 2 },
    sweep_seed: 0,
    model: 'simulated',
    shard: { index: 1, count: 1 },
    chunk_size: 250,
  },
  chunks_done: 1,
  runs_done: 2,
  jsonl_bytes: 100,
  csv_bytes: 100,
};

/** Every path into a JSON value (objects and arrays), the root included. */
function paths(value: unknown, prefix: readonly (string | number)[] = []): (string | number)[][] {
  const here = [[...prefix]];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => paths(item, [...prefix, i]))];
  if (typeof value === 'object' && value !== null)
    return [...here, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...prefix, key]))];
  return here;
}

/** Raw JSON texts a field can be replaced with, including numbers JSON.parse reads as Infinity or rounds. */
const rawValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('1e400', '-1e400', '9007199254740993', '1e-400', '-0', '123456789012345678901234567890', '0.5', '-1'),
  fc.constantFrom('""', 'null', '[]', '{}', 'true', '0'),
  fc.double().map((value) => (Number.isFinite(value) ? String(value) : '0')),
  fc.string().map((text) => JSON.stringify(text)),
);

/** `valid` with the value at one path replaced by a raw JSON text, or removed, as JSON text. */
function mutated(valid: unknown): fc.Arbitrary<string> {
  const all = paths(valid).filter((path) => path.length > 0);
  return fc.tuple(fc.constantFrom(...all), fc.option(rawValue, { nil: undefined })).map(([path, raw]) => {
    const copy = structuredClone(valid) as Record<string | number, unknown>;
    let parent = copy;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    const marker = '\u0000MUTATED\u0000';
    if (raw === undefined) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      return JSON.stringify(copy);
    }
    parent[last] = marker;
    return JSON.stringify(copy).replace(JSON.stringify(marker), raw);
  });
}

/** Any text: valid, a valid one cut off, mutated, random characters, or random bytes read as UTF-8. */
function anyText(valid: unknown): fc.Arbitrary<string> {
  const whole = JSON.stringify(valid);
  return fc.oneof(
    fc.constant(whole),
    fc.nat({ max: whole.length }).map((at) => whole.slice(0, at)),
    { arbitrary: mutated(valid), weight: 4 },
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
    fc.nat({ max: 5000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  );
}

/** A file's lines: any mix of valid, cut, mutated and random lines. */
function anyLines(valid: unknown): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(anyText(valid), { maxLength: 5 }), fc.boolean())
    .map(([lines, newline]) => lines.join('\n') + (newline ? '\n' : ''));
}

/** Runs `read`; a UserInputError must name `file` in every problem (with a line or field where it has one). */
async function endsWell(read: () => unknown, file: string): Promise<void> {
  try {
    await read();
  } catch (error) {
    if (!(error instanceof UserInputError)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
    for (const problem of error.problems) expect(problem.source.startsWith(file), error.message).toBe(true);
  }
}

const root = mkdtempSync(join(tmpdir(), 'spiralbench-fuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const runs = { numRuns: fuzzRuns() };

describe('results readers, fed anything', () => {
  it('a runs.jsonl line', () => {
    fc.assert(
      fc.property(anyText(RUN), (line) => {
        try {
          const run = parseRunLine(line, 'runs.jsonl:7');
          expect(Number.isSafeInteger(run.tool_calls) && run.tool_calls >= 0).toBe(true);
        } catch (error) {
          if (!(error instanceof UserInputError)) throw error;
          expect(error.message).toMatch(/^runs\.jsonl:7: \S/);
        }
      }),
      runs,
    );
  });

  it('a whole runs.jsonl, against its summary', async () => {
    const dir = join(root, 'runs');
    writeFileSync(join(mkdirp(dir), 'summary.json'), JSON.stringify(SUMMARY));
    const file = join(dir, 'runs.jsonl');
    await fc.assert(
      fc.asyncProperty(anyLines(RUN), async (text) => {
        writeFileSync(file, text);
        await endsWell(() => readRuns(openFinishedSweep(dir)), file);
      }),
      runs,
    );
  });

  it('a summary.json', async () => {
    const dir = join(root, 'summary');
    writeFileSync(join(mkdirp(dir), 'runs.jsonl'), '');
    const file = join(dir, 'summary.json');
    await fc.assert(
      fc.asyncProperty(anyText(SUMMARY), async (text) => {
        writeFileSync(file, text);
        await endsWell(() => openFinishedSweep(dir), file);
      }),
      runs,
    );
  });

  it('a traces.jsonl', async () => {
    const dir = join(root, 'traces');
    writeFileSync(join(mkdirp(dir), 'runs.jsonl'), '');
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(SUMMARY));
    const sweep = openFinishedSweep(dir);
    const file = join(dir, 'traces.jsonl');
    await fc.assert(
      fc.asyncProperty(anyLines(TRACE), async (text) => {
        writeFileSync(file, text);
        await endsWell(() => readTraces(sweep), file);
      }),
      runs,
    );
  });

  it('a meta.json and a progress.json', async () => {
    const dir = mkdirp(join(root, 'meta'));
    await fc.assert(
      fc.asyncProperty(anyText(META), anyText(PROGRESS), async (meta, progress) => {
        writeFileSync(join(dir, 'meta.json'), meta);
        writeFileSync(join(dir, 'progress.json'), progress);
        await endsWell(() => readMeta(dir), join(dir, 'meta.json'));
        await endsWell(() => readProgress(dir), join(dir, 'progress.json'));
      }),
      runs,
    );
  });
});

/** A fresh, empty folder. */
function mkdirp(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
