import type { StoredMeta } from '../../results/meta-schema.js';
import { openFinishedSweep, readTraces, type FinishedSweep } from '../../results/results-reader.js';
import type { StoredSummary } from '../../results/summary-schema.js';
import type { StoredTrace, StoredTraceEvent } from '../../results/trace-schema.js';
import { readSweepRuns, type SweepRuns } from '../read-sweep.js';

/** meta.json: where and when the sweep ran (optional: older sweeps have none). */
export type SweepMetaFile = StoredMeta;

/** An event of a saved timeline: a known AgentEvent or one this version does not know yet. */
export type TraceEvent = StoredTraceEvent;

/** One line of traces.jsonl: a selected run's timeline. */
export type TraceLine = StoredTrace;

/** Everything a report is made from, read from one sweep folder. */
export interface ReportInput {
  /** The folder's name, e.g. `baseline` for results/baseline. */
  readonly name: string;
  readonly summary: StoredSummary;
  readonly meta: SweepMetaFile | undefined;
  /** Per-cell columns of runs.jsonl, for the distributions. */
  readonly runs: SweepRuns;
  /** traces.jsonl in file order; undefined when the sweep has none. */
  readonly traces: readonly TraceLine[] | undefined;
}

/** summary.json and meta.json of a finished sweep: all the headline needs. */
export type SweepHeader = FinishedSweep;

/**
 * Opens a finished sweep and reads its summary.json and meta.json: refused, with the
 * reason, when the folder is interrupted, in use, of an unknown format or not a sweep.
 */
export function readSweepHeader(sweepDir: string): SweepHeader {
  return openFinishedSweep(sweepDir);
}

/**
 * Reads a finished sweep folder: summary.json and meta.json (see readSweepHeader),
 * runs.jsonl streamed into per-cell columns (checked whole against the summary), and
 * traces.jsonl when it is there.
 */
export async function readReportInput(sweep: string | SweepHeader): Promise<ReportInput> {
  const header = typeof sweep === 'string' ? readSweepHeader(sweep) : sweep;
  const runs = await readSweepRuns(header);
  const traces = await readTraces(header);
  return { name: header.name, summary: header.summary, meta: header.meta, runs, traces };
}
