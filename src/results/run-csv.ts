import { stringify } from 'csv-stringify/sync';
import { FAULT_KINDS } from '../tools/tool-fault.js';
import { RECORDED_MODEL_FAULT_KINDS } from '../faults/model-faults.js';
import { COUNTED_EVENTS } from './counted-events.js';
import type { StoredRun } from './run-record-schema.js';

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
];

export const CSV_HEADER: string = stringify([CSV_COLUMNS]);

function csvRow(record: StoredRun): unknown[] {
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
  ];
}

/** CSV lines (no header) for records, RFC 4180 quoting by csv-stringify. */
export function csvRows(records: readonly StoredRun[]): string {
  return stringify(records.map(csvRow));
}
