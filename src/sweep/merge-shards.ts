import { join, resolve } from 'node:path';
import { claimResultsFolder } from '../results/results-folder.js';
import { openFinishedSweep, readRuns, readTraces, type FinishedSweep } from '../results/results-reader.js';
import { SUMMARY_FILE, TRACES_FILE } from '../results/results-files.js';
import { SeedLines } from '../results/seed-lines.js';
import { csvRows } from '../results/run-csv.js';
import type { StoredRun } from '../results/run-record-schema.js';
import type { StoredSummary } from '../results/summary-schema.js';
import type { StoredTrace } from '../results/trace-schema.js';
import { UserInputError } from '../user-input-error.js';
import { CellAccumulator } from './cell-accumulator.js';
import { packRun, PACKED_WIDTH } from './packed-metrics.js';
import { changedModules, changedToolsModuleFiles } from '../arms/recorded-arms.js';
import { sweepSummary } from './sweep-summary.js';
import { shownIdentityField } from './sweep-progress.js';

/** Where a run was read, as one number: its shard's place times this, plus its line (below 2^32 lines a shard). */
const SHARD_LINES = 2 ** 32;

/** Runs per append: enough to amortise the CSV formatting, few enough to keep memory flat. */
const BATCH = 1000;

function traceKey(scenario: string, arm: string, seed: number): string {
  return `${scenario}\u0000${arm}\u0000${seed}`;
}

/** The parts of a summary that must be the same in every shard of one sweep. */
const DEFINITION = ['sweep_seed', 'seeds', 'model', 'scenarios', 'arms', 'ensemble'] as const;

/** What differs between two shards' definitions, in words; empty when they are shards of one sweep. */
function differences(shard: StoredSummary, first: StoredSummary): string[] {
  const differing = DEFINITION.filter((field) => JSON.stringify(shard[field]) !== JSON.stringify(first[field]));
  const changed = differing.includes('arms') ? changedModules(first.arms, shard.arms) : [];
  const changedTools = differing.includes('scenarios') ? changedToolsModuleFiles(first.scenarios, shard.scenarios) : [];
  return differing.map((field) =>
    field === 'arms' && changed.length > 0
      ? `the text of its agent or guard modules differs: ${changed.join('; ')}`
      : field === 'scenarios' && changedTools.length > 0
        ? `the files of its tools modules differ: ${changedTools.join('; ')}`
        : `its ${field} ${shownIdentityField(field, shard[field])}, theirs ${shownIdentityField(field, first[field])}`,
  );
}

/** Opens every shard as a finished sweep and checks they are the shards 1..n of one sweep, in shard order. */
function openShards(dirs: readonly string[]): FinishedSweep[] {
  const shards = dirs.map(openFinishedSweep);
  const first = shards[0]!;
  const count = first.summary.shard?.count ?? 1;
  for (const shard of shards) {
    const file = join(shard.dir, SUMMARY_FILE);
    const differing = differences(shard.summary, first.summary);
    if (differing.length > 0) {
      throw UserInputError.single(
        file,
        '',
        `a shard of the same sweep as ${join(first.dir, SUMMARY_FILE)} (same seeds, arms, scenarios, model and ensemble); ${differing.join('; ')}`,
      );
    }
    if ((shard.summary.shard?.count ?? 1) !== count)
      throw UserInputError.single(file, 'shard.count', `${count}, like the other shards`);
  }
  const index = (shard: FinishedSweep) => shard.summary.shard?.index ?? 1;
  const indexes = shards.map(index).sort((a, b) => a - b);
  const expected = Array.from({ length: count }, (_, i) => i + 1);
  if (indexes.join() !== expected.join()) {
    throw UserInputError.single('merge', '', `every shard 1..${count} exactly once; got ${indexes.join(', ')}`);
  }
  return shards.sort((a, b) => index(a) - index(b));
}

/**
 * Combines the folders of `run --shard 1/n` … `n/n` into one sweep, byte-identical to the
 * sweep run unsharded: shards are contiguous slices of the output order, so their runs
 * are concatenated in shard order and the summary is computed again from them. Each
 * shard must be a finished, whole sweep; the merged files appear in `outDir` only once
 * all of them are written, so a merge that fails leaves `outDir` as it was. An `outDir`
 * already holding a sweep, finished or not, is refused unless `overwrite` is set.
 */
export async function mergeShards(
  dirs: readonly string[],
  outDir: string,
  options: { readonly overwrite?: boolean } = {},
): Promise<StoredSummary> {
  if (dirs.length === 0) throw UserInputError.single('merge', '', 'one or more shard folders');
  const shards = openShards(dirs);
  if (dirs.includes(outDir) || shards.some((shard) => shard.dir === resolve(outDir)))
    throw UserInputError.single(
      '--out',
      '',
      `a folder other than the shard folders (${outDir} is one of them and would be overwritten)`,
    );
  const first = shards[0]!.summary;

  const shardTraces = new Map<string, StoredTrace>();
  const traced = new Map<FinishedSweep, boolean>();
  for (const shard of shards) {
    const traces = await readTraces(shard);
    traced.set(shard, traces !== undefined);
    for (const trace of traces ?? []) shardTraces.set(traceKey(trace.scenario, trace.arm, trace.seed), trace);
  }
  // A sweep traces every shard or none (a real model's): one without is a file lost, and
  // the merged report would lose those timelines without a word.
  const untraced = shards.find((shard) => !traced.get(shard));
  if (untraced !== undefined && shards.some((shard) => traced.get(shard)))
    throw UserInputError.single(
      join(untraced.dir, TRACES_FILE),
      '',
      "the shard's traces, as the other shards have them: the file is missing (run the shard again, or merge a copy that has it)",
    );

  const impossible = new Map(first.scenarios.map((scenario) => [scenario.id, scenario.impossible]));
  const tasks = new Map(first.scenarios.map((scenario) => [scenario.id, scenario.tasks]));
  const cells = new Map<string, CellAccumulator>();
  const folder = claimResultsFolder(outDir, options.overwrite === true ? 'merge-discard' : 'merge');
  try {
    const writer = folder.mergeWriter();
    const packed = new Float64Array(PACKED_WIDTH);
    // Each cell's seeds over every shard, by where they were read (the shard, its line):
    // shards that overlap would count a run twice, and (their counts being right) leave
    // another out. The one thing held for every run: 8 bytes of where it was.
    const seedLines = new Map<string, SeedLines>();
    const ranPerCell = new Map<string, number>();
    for (const [shardAt, shard] of shards.entries()) {
      let batch: StoredRun[] = [];
      let jsonl = '';
      const flush = () => {
        writer.append({ runs: batch.length, jsonl, csv: csvRows(batch) });
        batch = [];
        jsonl = '';
      };
      await readRuns(shard, (record, { text, line, source }) => {
        const key = `${record.scenario}\u0000${record.arm}`;
        let lines = seedLines.get(key);
        if (lines === undefined) seedLines.set(key, (lines = new SeedLines()));
        ranPerCell.set(key, (ranPerCell.get(key) ?? 0) + 1);
        const earlier = lines.add(record.seed - first.seeds.base, shardAt * SHARD_LINES + line);
        if (earlier !== 0) {
          const other = shards[Math.floor(earlier / SHARD_LINES)]!;
          throw UserInputError.single(
            source,
            'seed',
            `a seed no other shard holds; seed ${record.seed} of ${record.scenario} · ${record.arm} is also in ${other.runsFile}:${earlier % SHARD_LINES}: the shards overlap`,
          );
        }
        let cell = cells.get(key);
        if (cell === undefined) {
          cell = new CellAccumulator(
            record.scenario,
            record.arm,
            impossible.get(record.scenario) === true,
            tasks.get(record.scenario),
          );
          cells.set(key, cell);
        }
        packRun(record, packed, 0);
        cell.addPacked(packed, 1);
        batch.push(record);
        // The line as the shard wrote it: the merged runs.jsonl is the same bytes.
        jsonl += `${text}\n`;
        if (batch.length === BATCH) flush();
      });
      if (batch.length > 0) flush();
    }
    // With no seed twice, every cell holding all the sweep's seeds is every seed of it.
    for (const scenario of first.scenarios)
      for (const arm of first.arms) {
        const runs = ranPerCell.get(`${scenario.id}\u0000${arm.name}`) ?? 0;
        if (runs !== first.seeds.count)
          throw UserInputError.single(
            'merge',
            '',
            `every run of the sweep: the shards hold ${runs} of the ${first.seeds.count} runs of ${scenario.id} · ${arm.name}`,
          );
      }
    // Field by field, in the order runSweep writes them: the merged summary must be the same bytes.
    const { sweep_seed, seeds, model, scenarios, arms, ensemble } = first;
    const summary = sweepSummary(
      { sweep_seed, seeds, model, shard: null, scenarios, arms },
      [...cells.values()].map((cell) => cell.summary()),
      undefined,
      ensemble,
    );
    // Each shard traced its own share of every cell's candidates, so the merged sweep's
    // candidates are all among them; only their reasons are decided again, globally.
    const traces: StoredTrace[] = [];
    for (const cell of cells.values()) {
      for (const { seed, reasons } of cell.traceCandidates()) {
        const trace = shardTraces.get(traceKey(cell.scenario, cell.arm, seed));
        if (trace !== undefined) traces.push({ ...trace, reasons });
      }
    }
    writer.close(summary, traces);
    return summary;
  } finally {
    folder.release();
  }
}
