import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { InputProblem } from '../user-input-error.js';
import { referencesIn } from './references.js';

/** A row of a dataset: its values by column, the line it starts on, and the task it names. */
export interface DatasetRow {
  readonly values: Readonly<Record<string, unknown>>;
  readonly line: number;
  /** The task's id: the `task_id` column's value, or the row's number (from 1). */
  readonly taskId: string;
}

/** The scenario fields a row may fill; a placeholder anywhere else is a mistake. */
export const FILLED_FIELDS = ['system', 'prompt', 'history', 'world', 'plan', 'check'] as const;

/** `{{column}}`: letters, digits, `_`, `-` and `.`, spaces around allowed. */
const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;
const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;

/**
 * The rows of a dataset file, by its extension: JSON Lines (one object a line) or CSV
 * (a header row, then one row a line; every value is text). Problems name the file and
 * the line.
 */
export function readDatasetRows(
  path: string,
  text: string,
  taskIdColumn: string | undefined,
): { rows: DatasetRow[]; problems: InputProblem[] } {
  const kind = extname(path).toLowerCase();
  if (kind !== '.jsonl' && kind !== '.csv')
    return { rows: [], problems: [{ source: path, field: '', expected: 'a .jsonl or .csv file of task rows' }] };
  const problems: InputProblem[] = [];
  const raw: Array<{ values: Record<string, unknown>; line: number }> = [];
  if (kind === '.jsonl') {
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        problems.push({ source: `${path}:${i + 1}`, field: '', expected: 'a JSON object on one line' });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        problems.push({
          source: `${path}:${i + 1}`,
          field: '',
          expected: 'a JSON object (a row: its values by column)',
        });
      else raw.push({ values: value as Record<string, unknown>, line: i + 1 });
    });
  } else {
    try {
      const records = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, info: true }) as Array<{
        record: Record<string, string>;
        info: { lines: number };
      }>;
      for (const { record, info } of records) raw.push({ values: record, line: info.lines });
    } catch (error) {
      problems.push({ source: path, field: '', expected: `CSV with a header row (${(error as Error).message})` });
    }
  }
  if (raw.length === 0 && problems.length === 0)
    problems.push({ source: path, field: '', expected: 'at least one row (a task)' });
  const rows: DatasetRow[] = [];
  const seen = new Map<string, number>();
  raw.forEach(({ values, line }, i) => {
    let taskId = String(i + 1);
    if (taskIdColumn !== undefined) {
      const value = values[taskIdColumn];
      if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') {
        problems.push({
          source: `${path}:${line}`,
          field: taskIdColumn,
          expected: `the task's id, text or a number, not empty (dataset.task_id names this column)`,
        });
        return;
      }
      taskId = String(value);
    }
    const earlier = seen.get(taskId);
    if (earlier !== undefined)
      problems.push({
        source: `${path}:${line}`,
        field: taskIdColumn ?? '',
        expected: `a task id of its own ('${taskId}' is the task of line ${earlier} too)`,
      });
    seen.set(taskId, line);
    rows.push({ values, line, taskId });
  });
  return { rows, problems };
}

/**
 * A key YAML made of an unquoted `{{column}}`: a flow mapping, stringified (`{ column }`
 * as a value's key, `{ ? { column } }` as a key of its own).
 */
const UNQUOTED = /^\{ *(?:\? *\{ *)?([\w.-]+) *(?:\} *)?\}$/;

/** Where placeholders are in a scenario file: each column with the dotted path of its string, and those left unquoted. */
interface Placeholders {
  readonly found: Array<{ path: string; column: string }>;
  readonly unquoted: Array<{ path: string; column: string }>;
}

function placeholdersIn(value: unknown, path: string, into: Placeholders): void {
  if (typeof value === 'string') {
    for (const match of value.matchAll(PLACEHOLDER)) into.found.push({ path, column: match[1]! });
  } else if (Array.isArray(value)) value.forEach((item, i) => placeholdersIn(item, `${path}.${i}`, into));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      const unquoted = WHOLE.test(key) ? null : UNQUOTED.exec(key);
      if (unquoted !== null) into.unquoted.push({ path, column: unquoted[1]! });
      placeholdersIn(key, at, into);
      placeholdersIn(item, at, into);
    }
}

/** The columns a scenario file's placeholders name, each with the first field naming it. */
export function placeholderColumns(raw: Record<string, unknown>): Map<string, string> {
  const into: Placeholders = { found: [], unquoted: [] };
  for (const [field, value] of Object.entries(raw)) if (field !== 'dataset') placeholdersIn(value, field, into);
  const columns = new Map<string, string>();
  for (const { path, column } of into.found) if (!columns.has(column)) columns.set(column, path);
  return columns;
}

/**
 * Problems with a scenario's placeholders: one outside the fields a row fills, one YAML
 * read as a mapping because it was not quoted, or one naming a column the dataset does not
 * have (the columns are those of its first row; every row is checked for them later).
 */
export function placeholderProblems(
  scenarioPath: string,
  raw: Record<string, unknown>,
  datasetPath: string,
  columns: readonly string[],
): InputProblem[] {
  const into: Placeholders = { found: [], unquoted: [] };
  for (const [field, value] of Object.entries(raw)) if (field !== 'dataset') placeholdersIn(value, field, into);
  const known = new Set(columns);
  const filled = new Set<string>(FILLED_FIELDS);
  const unquoted = into.unquoted.map(({ path, column }) => ({
    source: scenarioPath,
    field: path,
    expected: `"{{${column}}}" in quotes: unquoted, YAML reads {{${column}}} as a mapping, not a placeholder`,
  }));
  return [
    ...unquoted,
    ...into.found.flatMap(({ path, column }) => {
      if (!filled.has(path.split('.')[0]!))
        return [
          {
            source: scenarioPath,
            field: path,
            expected: `no {{${column}}}: a dataset's rows fill only ${FILLED_FIELDS.join(', ')}`,
          },
        ];
      if (!known.has(column))
        return [
          {
            source: scenarioPath,
            field: path,
            expected: `{{${column}}} naming a column of ${datasetPath} (${columns.join(', ') || 'it has none'})`,
          },
        ];
      return [];
    }),
  ];
}

/** A row's problems with the columns the scenario's placeholders name: each it lacks, by file and line. */
export function rowColumnProblems(
  datasetPath: string,
  row: DatasetRow,
  columns: ReadonlyMap<string, string>,
): InputProblem[] {
  return [...columns].flatMap(([column, field]): InputProblem[] =>
    Object.hasOwn(row.values, column)
      ? []
      : [
          {
            source: `${datasetPath}:${row.line}`,
            field: column,
            expected: `a value: the scenario's ${field} names {{${column}}}`,
          },
        ],
  );
}

/**
 * References to earlier steps (`$fetch.email`) that a row's values made in the plan: in
 * a plan, text starting with `$` is a reference at any depth, and a row's data must not
 * become one. Those the scenario wrote itself are its own.
 */
export function madeReferenceProblems(
  datasetPath: string,
  row: DatasetRow,
  template: unknown,
  filled: unknown,
): InputProblem[] {
  const own = new Set(referencesIn(template, 'plan').map((reference) => `${reference.field}\0${reference.text}`));
  return referencesIn(filled, 'plan')
    .filter((reference) => !own.has(`${reference.field}\0${reference.text}`))
    .map((reference) => ({
      source: `${datasetPath}:${row.line}`,
      field: reference.field,
      expected: `no text starting with $ from the row ('${reference.text}'): in a plan, $ starts a reference to an earlier step's result`,
    }));
}

/**
 * A value with the row's values put in for its placeholders. A string that is one
 * placeholder and nothing else takes the row's value as it is (a number, an object from
 * JSON Lines); a placeholder inside other text takes its text (JSON for an object).
 */
function fill(value: unknown, row: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole !== null && Object.hasOwn(row, whole[1]!)) return row[whole[1]!];
    return fillText(value, row);
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, row));
  // A key is text: a world's records keyed by the row's id (`"{{user_id}}": "{{record}}"`).
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [fillText(key, row), fill(item, row)]));
  return value;
}

function fillText(text: string, row: Readonly<Record<string, unknown>>): string {
  return text.replace(PLACEHOLDER, (match, column: string) => {
    if (!Object.hasOwn(row, column)) return match;
    const cell = row[column];
    return typeof cell === 'string' ? cell : JSON.stringify(cell);
  });
}

/** The raw scenario file for one row: the fields a row fills, filled. */
export function filledScenario(raw: Record<string, unknown>, row: DatasetRow): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...raw };
  for (const field of FILLED_FIELDS) if (field in raw) filled[field] = fill(raw[field], row.values);
  return filled;
}

/**
 * The row a run plays: seeds cycle through the rows in order, seed 1 the first row, so
 * seeds 1..n cover every row of n once and 1..kn each k times.
 */
export function rowIndexOfSeed(seed: number, rows: number): number {
  return (((seed - 1) % rows) + rows) % rows;
}
