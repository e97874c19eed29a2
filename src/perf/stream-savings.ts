import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, type Distribution } from '../stats/descriptive.js';
import type { RunRecord } from '../results/run-record-schema.js';

/** One (scenario, arm) cell of two sweeps of the same seeds, one streamed: how far they agree and what streaming saved. */
export interface StreamSavingsRow {
  readonly scenario: string;
  readonly arm: string;
  readonly runs: number;
  /** Runs whose verdict is the same streamed and not. */
  readonly sameVerdict: number;
  /** Runs whose outcome, tool calls, model calls and tokens are all the same. */
  readonly sameRun: number;
  /** Virtual ms saved per run (unstreamed less streamed). */
  readonly savedMs: Distribution;
  /** Runs that saved any time. */
  readonly savedRuns: number;
  /** Mean virtual ms of the unstreamed runs, for scale. */
  readonly plainMeanMs: number;
}

type Paired = Pick<
  RunRecord,
  | 'scenario'
  | 'arm'
  | 'seed'
  | 'verdict'
  | 'outcome'
  | 'tool_calls'
  | 'model_calls'
  | 'input_tokens'
  | 'output_tokens'
  | 'virtual_ms'
>;

/**
 * Pairs the runs of an unstreamed sweep with those of the same sweep run with
 * `--stream`, by (scenario, arm, seed), and summarises each cell. A run missing from
 * either side is an error: the sweeps must cover the same seeds.
 */
export function streamSavings(plain: readonly Paired[], streamed: readonly Paired[]): StreamSavingsRow[] {
  const key = (run: Paired): string => `${run.scenario}\u0000${run.arm}\u0000${run.seed}`;
  const byKey = new Map(plain.map((run) => [key(run), run]));
  if (byKey.size !== streamed.length)
    throw new Error(`the sweeps differ in size: ${byKey.size} runs unstreamed, ${streamed.length} streamed`);
  const cells = new Map<
    string,
    { scenario: string; arm: string; same: number; sameRun: number; saved: number[]; plainMs: number }
  >();
  for (const run of streamed) {
    const other = byKey.get(key(run));
    if (other === undefined)
      throw new Error(`${run.scenario} · ${run.arm} · seed ${run.seed} is in the streamed sweep only`);
    const name = `${run.scenario}\u0000${run.arm}`;
    let cell = cells.get(name);
    if (cell === undefined)
      cells.set(name, (cell = { scenario: run.scenario, arm: run.arm, same: 0, sameRun: 0, saved: [], plainMs: 0 }));
    if (run.verdict === other.verdict) cell.same += 1;
    const fields = ['outcome', 'tool_calls', 'model_calls', 'input_tokens', 'output_tokens'] as const;
    if (fields.every((field) => run[field] === other[field])) cell.sameRun += 1;
    cell.saved.push(other.virtual_ms - run.virtual_ms);
    cell.plainMs += other.virtual_ms;
  }
  return [...cells.values()].map((cell) => ({
    scenario: cell.scenario,
    arm: cell.arm,
    runs: cell.saved.length,
    sameVerdict: cell.same,
    sameRun: cell.sameRun,
    savedMs: describe(cell.saved),
    savedRuns: cell.saved.filter((ms) => ms > 0).length,
    plainMeanMs: Math.round(cell.plainMs / cell.saved.length),
  }));
}

function readRuns(dir: string): Paired[] {
  return readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Paired);
}

// `node dist/perf/stream-savings.js <unstreamed results> <streamed results>`: one line per cell.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [plainDir, streamedDir] = process.argv.slice(2);
  if (plainDir === undefined || streamedDir === undefined)
    throw new Error('usage: stream-savings <unstreamed results folder> <streamed results folder>');
  for (const row of streamSavings(readRuns(plainDir), readRuns(streamedDir))) {
    const { median, mean, p95, max } = row.savedMs;
    process.stdout.write(
      `${row.scenario} · ${row.arm}: ${row.runs} runs, same verdict ${row.sameVerdict}/${row.runs}, same run ${row.sameRun}/${row.runs}; ` +
        `saved per run: median ${median} ms, mean ${mean} ms, p95 ${p95} ms, max ${max} ms (${row.savedRuns} runs saved any; unstreamed mean ${row.plainMeanMs} ms)\n`,
    );
  }
}
