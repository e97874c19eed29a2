import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UserInputError } from '../user-input-error.js';
import { CellAccumulator } from './cell-accumulator.js';
import { packRun, PACKED_WIDTH, VERDICT_KINDS } from './packed-metrics.js';
import { ResultsWriter } from './results-writer.js';
import type { RunRecord } from './run-record.js';
import { csvRows } from './run-csv.js';
import { sweepSummary, type SweepSummary } from './sweep.js';
import type { Trace } from './traces.js';

function traceKey(scenario: string, arm: string, seed: number): string {
  return `${scenario}\u0000${arm}\u0000${seed}`;
}

function readTraces(path: string): Trace[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Trace;
      } catch {
        throw UserInputError.single(`${path}:${i + 1}`, '', 'one JSON trace per line');
      }
    });
}

function readSummary(dir: string): SweepSummary {
  const path = join(dir, 'summary.json');
  if (!existsSync(path))
    throw UserInputError.single(path, '', 'a summary.json written by `spiralbench run --shard i/n`');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SweepSummary;
  } catch {
    throw UserInputError.single(path, '', 'valid JSON');
  }
}

/** The part of a summary that must be the same in every shard of one sweep. */
function definitionOf(summary: SweepSummary): string {
  const { sweep_seed, seeds, model, scenarios, arms } = summary;
  return JSON.stringify({ sweep_seed, seeds, model, scenarios, arms });
}

const NUMERIC_FIELDS = [
  'tool_calls',
  'tool_executions',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'virtual_ms',
  'duplicate_side_effects',
] as const;

function parseRecord(line: string, source: string): RunRecord {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    throw UserInputError.single(source, '', 'one JSON run record per line');
  }
  const fields = record as Record<string, unknown>;
  for (const field of ['scenario', 'arm', 'verdict', 'outcome']) {
    if (typeof fields[field] !== 'string') throw UserInputError.single(source, field, 'a string');
  }
  if (!VERDICT_KINDS.includes(fields['verdict'] as never))
    throw UserInputError.single(source, 'verdict', `one of ${VERDICT_KINDS.join(', ')}`);
  for (const field of NUMERIC_FIELDS) {
    if (typeof fields[field] !== 'number' || !Number.isInteger(fields[field]) || (fields[field] as number) < 0) {
      throw UserInputError.single(source, field, 'a non-negative whole number');
    }
  }
  return record as RunRecord;
}

/**
 * Combines the folders of `run --shard 1/n` … `n/n` into one sweep, byte-identical to the
 * sweep run unsharded: shards are contiguous slices of the output order, so their runs
 * are concatenated in shard order and the summary is computed again from them.
 */
export async function mergeShards(dirs: readonly string[], outDir: string): Promise<SweepSummary> {
  if (dirs.length === 0) throw UserInputError.single('merge', '', 'one or more shard folders');
  if (dirs.includes(outDir))
    throw UserInputError.single(
      '--out',
      '',
      `a folder other than the shard folders (${outDir} is one of them and would be overwritten)`,
    );
  const shards = dirs.map((dir) => ({ dir, summary: readSummary(dir) }));
  const first = shards[0]!.summary;
  const count = first.shard?.count ?? 1;
  for (const { dir, summary } of shards) {
    if (definitionOf(summary) !== definitionOf(first)) {
      throw UserInputError.single(
        join(dir, 'summary.json'),
        '',
        `a shard of the same sweep as ${join(shards[0]!.dir, 'summary.json')} (same seeds, arms, scenarios and model)`,
      );
    }
    if ((summary.shard?.count ?? 1) !== count)
      throw UserInputError.single(join(dir, 'summary.json'), 'shard.count', `${count}, like the other shards`);
  }
  const indexes = shards.map(({ summary }) => summary.shard?.index ?? 1).sort((a, b) => a - b);
  const expected = Array.from({ length: count }, (_, i) => i + 1);
  if (indexes.join() !== expected.join()) {
    throw UserInputError.single('merge', '', `every shard 1..${count} exactly once; got ${indexes.join(', ')}`);
  }
  shards.sort((a, b) => (a.summary.shard?.index ?? 1) - (b.summary.shard?.index ?? 1));

  const shardTraces = new Map<string, Trace>();
  for (const { dir } of shards) {
    for (const trace of readTraces(join(dir, 'traces.jsonl')))
      shardTraces.set(traceKey(trace.scenario, trace.arm, trace.seed), trace);
  }

  const impossible = new Map(first.scenarios.map((scenario) => [scenario.id, scenario.impossible]));
  const cells = new Map<string, CellAccumulator>();
  const writer = new ResultsWriter(outDir);
  const packed = new Float64Array(PACKED_WIDTH);
  for (const { dir } of shards) {
    const path = join(dir, 'runs.jsonl');
    if (!existsSync(path)) throw UserInputError.single(path, '', 'the runs.jsonl of the shard');
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let lineNumber = 0;
    let batch: RunRecord[] = [];
    let jsonl = '';
    const flush = () => {
      writer.append({ index: 0, runs: batch.length, jsonl, csv: csvRows(batch), packed: new Float64Array(0) });
      batch = [];
      jsonl = '';
    };
    for await (const line of lines) {
      lineNumber += 1;
      if (line === '') continue;
      const record = parseRecord(line, `${path}:${lineNumber}`);
      const key = `${record.scenario}\u0000${record.arm}`;
      let cell = cells.get(key);
      if (cell === undefined) {
        cell = new CellAccumulator(record.scenario, record.arm, impossible.get(record.scenario) === true);
        cells.set(key, cell);
      }
      packRun(record, packed, 0);
      cell.addPacked(packed, 1);
      batch.push(record);
      jsonl += `${line}\n`;
      if (batch.length === 1000) flush();
    }
    if (batch.length > 0) flush();
  }
  // Field by field, in the order runSweep writes them: the merged summary must be the same bytes.
  const { sweep_seed, seeds, model, scenarios, arms } = first;
  const summary = sweepSummary(
    { sweep_seed, seeds, model, shard: null, scenarios, arms },
    [...cells.values()].map((cell) => cell.summary()),
  );
  // Each shard traced its own share of every cell's candidates, so the merged sweep's
  // candidates are all among them; only their reasons are decided again, globally.
  const traces: Trace[] = [];
  for (const cell of cells.values()) {
    for (const { seed, reasons } of cell.traceCandidates()) {
      const trace = shardTraces.get(traceKey(cell.scenario, cell.arm, seed));
      if (trace !== undefined) traces.push({ ...trace, reasons });
    }
  }
  writer.close(summary, traces);
  return summary;
}
