import { FAULT_KINDS } from '../tools/tool-fault.js';
import { RECORDED_MODEL_FAULT_KINDS } from '../faults/model-faults.js';
import { COUNTED_EVENTS } from './counted-events.js';
import type { StoredRun } from './run-record-schema.js';

/** A field holding any of these is quoted. */
const NEEDS_QUOTES = /[",\n\r]/;

/** Flat CSV columns of runs.csv, in the order of the run record's fields. */
export const CSV_COLUMNS = [
  'sweep_seed',
  'scenario',
  'arm',
  'seed',
  'model',
  'outcome',
  'verdict',
  'verdict_reason',
  'tool_calls',
  'tool_executions',
  'tool_retries',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'virtual_ms',
  'duplicate_side_effects',
  ...FAULT_KINDS.map((kind) => `fault_${kind}`),
  ...COUNTED_EVENTS.map((type) => `event_${type}`),
  'escalation',
  ...RECORDED_MODEL_FAULT_KINDS.map((kind) => `model_fault_${kind}`),
  'refetch_calls',
  'journal',
  'cost_usd',
  // Last: columns added since keep every earlier column where it was.
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
];

export const CSV_HEADER: string = csvLine(CSV_COLUMNS);

/** A record's fields in CSV_COLUMNS order, before quoting. */
export function csvValues(record: StoredRun): CsvValue[] {
  return [
    record.sweep_seed,
    record.scenario,
    record.arm,
    record.seed,
    record.model,
    record.outcome,
    record.verdict,
    record.verdict_reason,
    record.tool_calls,
    record.tool_executions,
    record.tool_retries,
    record.model_calls,
    record.input_tokens,
    record.output_tokens,
    record.virtual_ms,
    record.duplicate_side_effects,
    ...FAULT_KINDS.map((kind) => record.faults[kind]),
    ...COUNTED_EVENTS.map((type) => record.events[type]),
    record.escalation === null ? '' : JSON.stringify(record.escalation),
    ...RECORDED_MODEL_FAULT_KINDS.map((kind) => record.model_faults?.[kind]),
    record.refetch_calls,
    record.journal === null || record.journal === undefined ? '' : JSON.stringify(record.journal),
    record.cost_usd,
    record.cache_read_input_tokens,
    record.cache_creation_input_tokens,
  ];
}

/** CSV lines (no header) for records, quoted as RFC 4180 says. */
export function csvRows(records: readonly StoredRun[]): string {
  let text = '';
  for (const record of records) text += csvLine(csvValues(record));
  return text;
}

export type CsvValue = string | number | null | undefined;

/**
 * One CSV line, ending in `\n`: a field is quoted only when it holds a comma, a quote or a
 * line break, a quote inside doubled; nothing (null, undefined) is an empty field. The same
 * bytes as csv-stringify's defaults (run-csv.test.ts checks), without its per-field option
 * handling: runs.csv is written for every run of a sweep.
 */
export function csvLine(values: readonly CsvValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    const value = values[i];
    if (value === null || value === undefined) continue;
    const text = typeof value === 'string' ? value : String(value);
    line += NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }
  return `${line}\n`;
}
