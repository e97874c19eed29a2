import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { SweepSummary } from '../../bench/sweep.js';
import type { TraceReason } from '../../bench/cell-accumulator.js';
import type { RunRecord } from '../../bench/run-record.js';
import { UserInputError, type InputProblem } from '../../user-input-error.js';
import { readSweep, type SweepRuns } from '../read-sweep.js';

// Saved results are read as untrusted input: each file is checked for the fields the
// report uses, and a bad one is named with the field and what was expected there.

const count = z.number().int().min(0);
const proportion = z.object({ successes: count, trials: count, rate: z.number(), low: z.number(), high: z.number() });
const distribution = z.object({ median: z.number(), p95: z.number(), max: z.number(), mean: z.number() });

const summarySchema = z.looseObject({
  spiralbench: z.string(),
  sweep_seed: z.number().int(),
  seeds: z.object({ base: count, count }),
  model: z.string(),
  shard: z.object({ index: count, count }).nullable(),
  scenarios: z
    .array(z.looseObject({ id: z.string().min(1), hash: z.string(), tool_budget: z.number(), impossible: z.boolean() }))
    .min(1),
  arms: z
    .array(z.looseObject({ name: z.string().min(1), guards: z.array(z.looseObject({ guard: z.string() })) }))
    .min(1),
  cells: z
    .array(
      z.looseObject({
        scenario: z.string(),
        arm: z.string(),
        runs: count,
        success: proportion,
        right_outcome: proportion,
        verdicts: z.record(z.string(), count),
        outcomes: z.record(z.string(), count),
        tool_calls: distribution,
        model_calls: distribution,
        input_tokens: distribution,
        output_tokens: distribution,
        virtual_ms: distribution,
        duplicate_side_effects: count,
      }),
    )
    .min(1),
  pass_hat_k: z.array(z.looseObject({ arm: z.string(), k: z.record(z.string(), z.number()) })),
});

const metaSchema = z.looseObject({
  spiralbench: z.string(),
  node: z.string(),
  git_commit: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string(),
  wall_seconds: z.number(),
  workers: z.number(),
  command: z.string(),
});

/** meta.json: where and when the sweep ran (optional: older sweeps have none). */
export type SweepMetaFile = z.infer<typeof metaSchema>;

const traceRecordSchema = z.looseObject({
  outcome: z.string(),
  verdict: z.string(),
  verdict_reason: z.string(),
  tool_calls: count,
  tool_executions: count,
  tool_retries: count,
  model_calls: count,
  input_tokens: count,
  output_tokens: count,
  virtual_ms: z.number(),
  duplicate_side_effects: count,
  faults: z.record(z.string(), count),
  escalation: z.unknown(),
  failure_reason: z
    .object({ error_class: z.string(), status: z.number().int().nullable(), message: z.string() })
    .optional(),
});

const traceSchema = z.looseObject({
  scenario: z.string(),
  arm: z.string(),
  seed: count,
  sweep_seed: z.number().int(),
  reasons: z.array(z.string()),
  replay: z.string(),
  record: traceRecordSchema,
  prompt: z.string(),
  events: z.array(z.looseObject({ type: z.string(), at: z.number() })),
  assistant_texts: z.array(z.string()),
  events_omitted: count,
  outbox: z.array(z.looseObject({ key: z.string(), value: z.unknown() })),
});

/** An event of a saved timeline: a known AgentEvent or one this version does not know yet. */
export interface TraceEvent {
  readonly type: string;
  readonly at: number;
  readonly [field: string]: unknown;
}

/** One line of traces.jsonl: a selected run's timeline. */
export interface TraceLine {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly sweep_seed: number;
  readonly reasons: readonly (TraceReason | string)[];
  readonly replay: string;
  readonly record: Pick<
    RunRecord,
    | 'outcome'
    | 'verdict'
    | 'verdict_reason'
    | 'tool_calls'
    | 'tool_executions'
    | 'tool_retries'
    | 'model_calls'
    | 'input_tokens'
    | 'output_tokens'
    | 'virtual_ms'
    | 'duplicate_side_effects'
    | 'escalation'
    | 'failure_reason'
  > & {
    readonly faults: Readonly<Record<string, number>>;
  };
  readonly prompt: string;
  readonly events: readonly TraceEvent[];
  readonly assistant_texts: readonly string[];
  readonly events_omitted: number;
  readonly outbox: ReadonlyArray<{ readonly key: string; readonly value: unknown }>;
}

/** Everything a report is made from, read from one sweep folder. */
export interface ReportInput {
  /** The folder's name, e.g. `baseline` for results/baseline. */
  readonly name: string;
  readonly summary: SweepSummary;
  readonly meta: SweepMetaFile | undefined;
  /** Per-cell columns of runs.jsonl, for the distributions. */
  readonly runs: SweepRuns;
  /** traces.jsonl in file order; undefined when the sweep has none. */
  readonly traces: readonly TraceLine[] | undefined;
}

function zodProblems(source: string, error: z.ZodError): InputProblem[] {
  return error.issues
    .slice(0, 10)
    .map((issue) => ({ source, field: issue.path.map(String).join('.'), expected: issue.message }));
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw UserInputError.single(file, '', `a readable JSON file (${(error as Error).message})`);
  }
}

/** summary.json and meta.json of a finished sweep: all the headline needs. */
export interface SweepHeader {
  readonly name: string;
  readonly dir: string;
  readonly summary: SweepSummary;
  readonly meta: SweepMetaFile | undefined;
}

/** Reads and checks summary.json (required: it is what makes a sweep finished) and meta.json (optional). */
export function readSweepHeader(sweepDir: string): SweepHeader {
  const dir = resolve(sweepDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw UserInputError.single(
      sweepDir,
      '',
      'a sweep folder (written by `spiralbench run --out <dir>`); no folder is there',
    );
  }
  const summaryFile = join(dir, 'summary.json');
  if (!existsSync(summaryFile)) {
    throw UserInputError.single(
      sweepDir,
      '',
      'a finished sweep folder holding summary.json; an interrupted sweep has none (run it again, or `spiralbench merge` its shards)',
    );
  }
  const summary = summarySchema.safeParse(readJson(summaryFile));
  if (!summary.success) throw new UserInputError(zodProblems(summaryFile, summary.error));

  const metaFile = join(dir, 'meta.json');
  let meta: SweepMetaFile | undefined;
  if (existsSync(metaFile)) {
    const parsed = metaSchema.safeParse(readJson(metaFile));
    if (!parsed.success) throw new UserInputError(zodProblems(metaFile, parsed.error));
    meta = parsed.data;
  }
  return { name: basename(dir), dir, summary: summary.data as unknown as SweepSummary, meta };
}

/**
 * Reads a finished sweep folder: summary.json and meta.json (see readSweepHeader),
 * runs.jsonl streamed into per-cell columns, and traces.jsonl when it is there.
 */
export async function readReportInput(sweepDir: string): Promise<ReportInput> {
  const { name, dir, summary, meta } = readSweepHeader(sweepDir);
  const runs = await readSweep(dir);
  const tracesFile = join(dir, 'traces.jsonl');
  const traces = existsSync(tracesFile) ? await readTraces(tracesFile) : undefined;
  return { name, summary, meta, runs, traces };
}

async function readTraces(file: string): Promise<TraceLine[]> {
  const traces: TraceLine[] = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const source = `${file}:${lineNumber}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw UserInputError.single(source, '', 'one JSON trace per line');
    }
    const parsed = traceSchema.safeParse(value);
    if (!parsed.success) throw new UserInputError(zodProblems(source, parsed.error));
    traces.push(parsed.data as unknown as TraceLine);
  }
  return traces;
}
