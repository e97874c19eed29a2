import { dirname, resolve } from 'node:path';
import { type InputProblem, UserInputError } from '../user-input-error.js';
import {
  filledScenario,
  madeReferenceProblems,
  placeholderColumns,
  placeholderProblems,
  readDatasetRows,
  rowColumnProblems,
} from './dataset.js';
import { readInputFile } from './input-file.js';
import type { WorldCheck } from './judge.js';
import { detourProblems, referenceProblems, zodProblems } from './scenario-problems.js';
import { type ScenarioFile, scenarioSchema } from './schema.js';
import type { ToolsModule } from './tools-module.js';

/**
 * A scenario's dataset made tasks (docs/datasets.md): the scenario file is a template,
 * filled from each row and checked as a file of its own. The loader calls it; the rows
 * themselves are read and filled by dataset.ts.
 */

/** A dataset file as read: its path and its text. */
export interface DatasetText {
  readonly path: string;
  readonly text: string;
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The fields a dataset's row fills: a Scenario's of the same names. */
export interface TaskFields {
  readonly system: string;
  readonly prompt: string;
  readonly history: ScenarioFile['history'];
  readonly world: ScenarioFile['world'];
  readonly plan: ScenarioFile['plan'];
  readonly check: Required<WorldCheck>;
}

/** One row of a dataset, made a task. */
export interface ScenarioTask {
  readonly id: string;
  readonly fields: TaskFields;
}

export interface ScenarioDataset {
  /** The file, as the scenario names it. */
  readonly file: string;
  readonly tasks: readonly ScenarioTask[];
}

/** The file's `dataset` when it is well formed (the schema check reports it otherwise). */
export function datasetSpecOf(raw: unknown): { file: string; task_id?: string } | undefined {
  const dataset = asObject(asObject(raw)['dataset']);
  const file = dataset['file'];
  const taskId = dataset['task_id'];
  if (typeof file !== 'string' || file === '') return undefined;
  return typeof taskId === 'string' && taskId !== '' ? { file, task_id: taskId } : { file };
}

/** Whether the value at a dotted field path of the raw file, or a text on the way to it, holds a `{{placeholder}}`. */
export function holdsPlaceholder(raw: unknown, field: string): boolean {
  let value: unknown = raw;
  for (const part of field === '' ? [] : field.split('.')) {
    if (typeof value === 'string') break;
    value =
      Array.isArray(value) || (typeof value === 'object' && value !== null)
        ? (value as Record<string, unknown>)[part]
        : undefined;
  }
  return JSON.stringify(value ?? null).includes('{{');
}

/** A dataset's text by the file a scenario names, or why there is none. */
export type DatasetLookup = (file: string) => DatasetText | InputProblem[];

/** Datasets read from disk, relative to the scenario file. */
export function datasetsBeside(scenarioPath: string): DatasetLookup {
  return (file) => {
    const path = resolve(dirname(scenarioPath), file);
    try {
      return { path, text: readInputFile(path) };
    } catch (error) {
      if (error instanceof UserInputError)
        return error.problems.map((problem) => ({
          ...problem,
          source: `${scenarioPath}: dataset.file: ${problem.source}`,
        }));
      throw error;
    }
  };
}

/** Rows whose problems are listed in full; the rest are counted, so a wrong column does not print a thousand lines. */
const ROWS_REPORTED = 5;

/**
 * The tasks of a dataset: the scenario file filled from each row and checked as a file of
 * its own (schema, references, detours), so every row is a valid scenario. Problems name
 * the row by file and line.
 */
export function datasetTasks(
  path: string,
  raw: Record<string, unknown>,
  taskIdColumn: string | undefined,
  dataset: DatasetText,
  module: ToolsModule | undefined,
  templateProblems: readonly InputProblem[],
): {
  tasks: ScenarioTask[];
  first: ScenarioFile | undefined;
  problems: InputProblem[];
  /** The file's own problems: the template's that every row has too, reported once against the file. */
  fileProblems: InputProblem[] | undefined;
} {
  const key = (problem: InputProblem) => `${problem.field}\0${problem.expected}`;
  const { rows, problems } = readDatasetRows(dataset.path, dataset.text, taskIdColumn);
  // Rows that cannot be read say why; their columns would only add noise.
  if (problems.length > 0) return { tasks: [], first: undefined, problems, fileProblems: undefined };
  problems.push(...placeholderProblems(path, raw, dataset.path, Object.keys(rows[0]?.values ?? {})));
  if (problems.length > 0) return { tasks: [], first: undefined, problems, fileProblems: undefined };
  const columns = placeholderColumns(raw);
  const checked = rows.map((row) => {
    const filled = filledScenario(raw, row);
    const parsed = scenarioSchema.safeParse(filled);
    // Checked as the scenario file (its name is the id), reported at the row.
    const own = [
      ...rowColumnProblems(dataset.path, row, columns),
      ...madeReferenceProblems(dataset.path, row, raw['plan'], filled['plan']),
      ...(parsed.success ? [] : zodProblems(path, parsed.error)),
      ...referenceProblems(path, filled, module),
      ...(parsed.success ? detourProblems(path, parsed.data.plan) : []),
    ].map((problem) => (problem.source === path ? { ...problem, source: `${dataset.path}:${row.line}` } : problem));
    return { row, parsed, own };
  });
  // What every row gets wrong is the file's to fix, said once; the rest is the row's.
  const everywhere = new Set(templateProblems.map(key));
  for (const { own } of checked) {
    const mine = new Set(own.map(key));
    for (const problem of everywhere) if (!mine.has(problem)) everywhere.delete(problem);
  }
  const tasks: ScenarioTask[] = [];
  let first: ScenarioFile | undefined;
  let failed = 0;
  for (const { row, parsed, own } of checked) {
    const its = own.filter((problem) => !everywhere.has(key(problem)));
    if (its.length > 0) {
      failed += 1;
      if (failed <= ROWS_REPORTED) problems.push(...its);
    }
    if (its.length > 0 || !parsed.success) continue;
    first ??= parsed.data;
    tasks.push({ id: row.taskId, fields: taskFields(parsed.data) });
  }
  if (failed > ROWS_REPORTED)
    problems.push({
      source: dataset.path,
      field: '',
      expected: `rows that fill the scenario validly (${failed - ROWS_REPORTED} more rows of ${rows.length} do not; the first ${ROWS_REPORTED} are listed above)`,
    });
  const fileProblems = templateProblems.filter((problem) => everywhere.has(key(problem)));
  return { tasks, first, problems, fileProblems };
}

export function taskFields(file: ScenarioFile): TaskFields {
  return {
    system: file.system,
    prompt: file.prompt,
    history: file.history,
    world: file.world,
    plan: file.plan,
    check: { outbox: file.check.outbox, forbidden: file.check.forbidden, impossible: file.impossible },
  };
}
