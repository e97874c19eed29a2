import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { FAULT_KINDS } from '../faults/fault-profile.js';
import { COUNTED_EVENTS, type RunRecord } from './run-record.js';

/** Flat CSV columns, in the order of RunRecord's fields. */
const CSV_COLUMNS = [
  'sweep_seed', 'scenario', 'arm', 'seed', 'model', 'outcome', 'verdict', 'verdict_reason',
  'tool_calls', 'tool_executions', 'tool_retries', 'model_calls', 'input_tokens', 'output_tokens',
  'virtual_ms', 'duplicate_side_effects',
  ...FAULT_KINDS.map((kind) => `fault_${kind}`),
  ...COUNTED_EVENTS.map((type) => `event_${type}`),
  'escalation',
];

function csvRow(record: RunRecord): unknown[] {
  return [
    record.sweep_seed, record.scenario, record.arm, record.seed, record.model, record.outcome, record.verdict,
    record.verdict_reason, record.tool_calls, record.tool_executions, record.tool_retries, record.model_calls,
    record.input_tokens, record.output_tokens, record.virtual_ms, record.duplicate_side_effects,
    ...FAULT_KINDS.map((kind) => record.faults[kind]),
    ...COUNTED_EVENTS.map((type) => record.events[type]),
    record.escalation === null ? '' : JSON.stringify(record.escalation),
  ];
}

/** Write `text` to `path` atomically: a reader sees the old file or the new one, never half. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/**
 * Appends finished runs to runs.jsonl and runs.csv in batches, so a sweep's results are
 * on disk as it goes rather than only at the end.
 */
export class ResultsWriter {
  readonly dir: string;
  readonly #jsonl: number;
  readonly #csv: number;
  readonly #batchSize: number;
  #jsonLines: string[] = [];
  #csvRows: unknown[][] = [];

  constructor(dir: string, batchSize = 256) {
    this.dir = dir;
    this.#batchSize = batchSize;
    mkdirSync(dir, { recursive: true });
    this.#jsonl = openSync(join(dir, 'runs.jsonl'), 'w');
    this.#csv = openSync(join(dir, 'runs.csv'), 'w');
    writeSync(this.#csv, stringify([CSV_COLUMNS]));
  }

  add(record: RunRecord): void {
    this.#jsonLines.push(JSON.stringify(record));
    this.#csvRows.push(csvRow(record));
    if (this.#jsonLines.length >= this.#batchSize) this.flush();
  }

  flush(): void {
    if (this.#jsonLines.length === 0) return;
    writeSync(this.#jsonl, `${this.#jsonLines.join('\n')}\n`);
    writeSync(this.#csv, stringify(this.#csvRows));
    this.#jsonLines = [];
    this.#csvRows = [];
  }

  close(summary: unknown): void {
    this.flush();
    closeSync(this.#jsonl);
    closeSync(this.#csv);
    writeFileAtomic(join(this.dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
