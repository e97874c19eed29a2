import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { VerdictKind } from '../scenarios/judge.js';
import { UserInputError } from '../user-input-error.js';

/** What `compare` needs of one (scenario, arm) cell of a sweep, and nothing more. */
export interface SweepCell {
  readonly scenario: string;
  readonly arm: string;
  /** The scenario cannot be completed, so asking for help is the right outcome (from summary.json). */
  readonly impossible: boolean;
  readonly trials: number;
  readonly successes: number;
  readonly escalated: number;
  /** Per run, in file order. */
  readonly toolCalls: Float64Array;
  readonly inputTokens: Float64Array;
  readonly outputTokens: Float64Array;
}

/** A sweep folder as read back from disk. */
export interface SweepRuns {
  /** The path as given. */
  readonly path: string;
  /** The runs.jsonl that was read. */
  readonly runsFile: string;
  readonly runs: number;
  /** Cells in order of first appearance in runs.jsonl (the sweep's own order). */
  readonly cells: readonly SweepCell[];
  /** Model names found in the runs, in order of first appearance. */
  readonly models: readonly string[];
  /** Whether summary.json was there; a sweep that was interrupted has none. */
  readonly hasSummary: boolean;
}

// Exhaustive over VerdictKind: a new verdict kind fails the type check here.
const VERDICTS = { success: true, escalated: true, failure: true, harmful: true } as const satisfies Record<
  VerdictKind,
  true
>;
const COUNT_FIELDS = ['tool_calls', 'input_tokens', 'output_tokens'] as const;

interface CellBuilder {
  readonly scenario: string;
  readonly arm: string;
  successes: number;
  escalated: number;
  readonly seeds: Map<number, number>;
  readonly columns: Record<(typeof COUNT_FIELDS)[number], number[]>;
}

/**
 * Reads a sweep folder (`results/<name>/`, or its runs.jsonl directly) line by line into
 * per-(scenario, arm) cells. The runs are the source of truth; summary.json is read only
 * for which scenarios are impossible. Bad input throws a UserInputError naming the file,
 * the line and what was expected there.
 *
 * @example
 * const sweep = await readSweep('results/baseline');
 * sweep.cells[0]?.successes;
 */
export async function readSweep(path: string): Promise<SweepRuns> {
  const { runsFile, summaryFile } = locate(path);
  const impossible = summaryFile === undefined ? new Set<string>() : readImpossibleScenarios(summaryFile);
  const cells = new Map<string, CellBuilder>();
  const models: string[] = [];
  let runs = 0;
  let lineNumber = 0;

  const lines = createInterface({ input: createReadStream(runsFile, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      const source = `${runsFile}:${lineNumber}`;
      const record = parseLine(line, source);
      const key = JSON.stringify([record.scenario, record.arm]);
      let cell = cells.get(key);
      if (cell === undefined) {
        cell = {
          scenario: record.scenario,
          arm: record.arm,
          successes: 0,
          escalated: 0,
          seeds: new Map(),
          columns: { tool_calls: [], input_tokens: [], output_tokens: [] },
        };
        cells.set(key, cell);
      }
      // A run counted twice would shrink every interval; refuse rather than guess which copy is right.
      const earlier = cell.seeds.get(record.seed);
      if (earlier !== undefined) {
        throw UserInputError.single(
          source,
          'seed',
          `a seed not already recorded for scenario '${record.scenario}', arm '${record.arm}'; seed ${record.seed} is also on line ${earlier}`,
        );
      }
      cell.seeds.set(record.seed, lineNumber);
      if (record.verdict === 'success') cell.successes += 1;
      if (record.verdict === 'escalated') cell.escalated += 1;
      for (const field of COUNT_FIELDS) cell.columns[field].push(record[field]);
      if (record.model !== undefined && !models.includes(record.model)) models.push(record.model);
      runs += 1;
    }
  } catch (error) {
    if (error instanceof UserInputError) throw error;
    throw UserInputError.single(runsFile, '', `a readable file (${(error as Error).message})`);
  } finally {
    lines.close();
  }
  if (runs === 0) throw UserInputError.single(runsFile, '', 'at least one run record; the file is empty');

  return {
    path,
    runsFile,
    runs,
    models,
    hasSummary: summaryFile !== undefined,
    cells: [...cells.values()].map((cell) => ({
      scenario: cell.scenario,
      arm: cell.arm,
      impossible: impossible.has(cell.scenario),
      trials: cell.seeds.size,
      successes: cell.successes,
      escalated: cell.escalated,
      toolCalls: Float64Array.from(cell.columns.tool_calls),
      inputTokens: Float64Array.from(cell.columns.input_tokens),
      outputTokens: Float64Array.from(cell.columns.output_tokens),
    })),
  };
}

function locate(path: string): { runsFile: string; summaryFile: string | undefined } {
  if (!existsSync(path))
    throw UserInputError.single(
      path,
      '',
      'a sweep folder holding runs.jsonl (written by `spiralbench run --out <dir>`); nothing is there',
    );
  if (statSync(path).isFile()) return { runsFile: path, summaryFile: undefined };
  const runsFile = join(path, 'runs.jsonl');
  if (!existsSync(runsFile))
    throw UserInputError.single(
      path,
      '',
      'a sweep folder holding runs.jsonl (written by `spiralbench run --out <dir>`); the folder has no runs.jsonl',
    );
  const summaryFile = join(path, 'summary.json');
  return { runsFile, summaryFile: existsSync(summaryFile) ? summaryFile : undefined };
}

function readImpossibleScenarios(file: string): Set<string> {
  let summary: unknown;
  try {
    summary = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw UserInputError.single(file, '', `valid JSON (${(error as Error).message})`);
  }
  const scenarios = (summary as { scenarios?: unknown } | null)?.scenarios;
  if (!Array.isArray(scenarios)) return new Set();
  const ids = scenarios.filter(
    (entry: { impossible?: unknown; id?: unknown }) => entry?.impossible === true && typeof entry.id === 'string',
  );
  return new Set(ids.map((entry: { id: string }) => entry.id));
}

interface ParsedRun {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly verdict: VerdictKind;
  readonly model: string | undefined;
  readonly tool_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
}

function parseLine(line: string, source: string): ParsedRun {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw UserInputError.single(source, '', `one JSON run record per line; got: ${preview(line)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw UserInputError.single(source, '', `a JSON object (a run record); got: ${preview(line)}`);
  }
  const fields = value as Record<string, unknown>;
  const text = (field: string): string => {
    const v = fields[field];
    if (typeof v !== 'string' || v === '')
      throw UserInputError.single(source, field, `a non-empty string; got ${describeValue(v)}`);
    return v;
  };
  const count = (field: string): number => {
    const v = fields[field];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw UserInputError.single(source, field, `a non-negative whole number; got ${describeValue(v)}`);
    return v;
  };
  const verdict = text('verdict');
  if (!Object.hasOwn(VERDICTS, verdict))
    throw UserInputError.single(source, 'verdict', `one of ${Object.keys(VERDICTS).join(', ')}; got '${verdict}'`);
  const model = fields['model'];
  return {
    scenario: text('scenario'),
    arm: text('arm'),
    seed: count('seed'),
    verdict: verdict as VerdictKind,
    model: typeof model === 'string' ? model : undefined,
    tool_calls: count('tool_calls'),
    input_tokens: count('input_tokens'),
    output_tokens: count('output_tokens'),
  };
}

function describeValue(value: unknown): string {
  return value === undefined ? 'nothing (the field is missing)' : preview(JSON.stringify(value));
}

function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
