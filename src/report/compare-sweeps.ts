import { UserInputError } from '../user-input-error.js';
import {
  compare,
  regressions,
  resolveCompareOptions,
  type CompareOptions,
  type CompareRow,
  type Comparison,
} from './compare.js';
import { escapeCell, renderCompareMarkdown } from './compare-markdown.js';
import { renderCompareText } from './compare-table.js';
import { readSweep, type SweepRuns } from './read-sweep.js';
import { join } from 'node:path';
import { SUMMARY_FILE } from '../results/results-files.js';

export interface CompareSweepsOptions extends CompareOptions {
  /** ANSI colours in `text`. @default false */
  readonly color?: boolean;
}

export interface CompareSweepsResult {
  readonly comparison: Comparison;
  readonly rows: readonly CompareRow[];
  readonly regressions: readonly CompareRow[];
  /** Table and verdict for a terminal. */
  readonly text: string;
  /** The same as a GitHub Markdown summary. */
  readonly markdown: string;
  /** Things worth knowing about the inputs, e.g. that the two sweeps ran different models. */
  readonly notes: readonly string[];
}

/**
 * Reads two sweep folders and compares them (see `compare`), rendered for a terminal and
 * as Markdown. Bad folders, arms or thresholds throw a UserInputError; so does a pair of
 * sweeps with no cell in common, so a CI gate cannot pass by comparing nothing.
 *
 * @example
 * const { regressions, markdown } = await compareSweepDirs('results/baseline', 'results/candidate');
 */
export async function compareSweepDirs(
  dirA: string,
  dirB: string,
  options: CompareSweepsOptions = {},
): Promise<CompareSweepsResult> {
  const resolved = resolveCompareOptions(options);
  const [a, b] = await Promise.all([readSweep(dirA), readSweep(dirB)]);
  // A shard's cells hold part of their runs: a gate must not pass on part of a sweep.
  for (const [sweep, dir] of [
    [a, dirA],
    [b, dirB],
  ] as const)
    if (sweep.shard !== null)
      throw UserInputError.single(
        join(dir, SUMMARY_FILE),
        'shard',
        `a whole sweep to compare; this folder holds shard ${sweep.shard.index}/${sweep.shard.count} of one (merge its shards first: spiralbench merge <shard folders> -o <folder>)`,
      );
  if (resolved.armA !== undefined) requireArm(a, resolved.armA, '--arm-a', 'A');
  if (resolved.armB !== undefined) requireArm(b, resolved.armB, '--arm-b', 'B');
  // Members match up only within one ensemble: the same file (by hash) on both sides.
  const oneModel = a.ensemble?.hash !== b.ensemble?.hash;
  const comparison = compare(a.cells, b.cells, resolved, { oneModel });
  if (comparison.rows.length === 0) {
    const cells = (sweep: SweepRuns) => sweep.cells.map((cell) => `${cell.scenario} · ${cell.arm}`).join(', ');
    throw UserInputError.single(
      dirB,
      '',
      `a sweep with at least one (scenario, arm) cell to compare with ${dirA}; A has ${cells(a)}, B has ${cells(b)}`,
    );
  }
  const notes: string[] = [];
  const changed = [...a.scenarioHashes].filter(([id, hash]) => (b.scenarioHashes.get(id) ?? hash) !== hash);
  if (changed.length > 0)
    notes.push(
      `note: ${changed.map(([id]) => id).join(', ')}: the scenario file differs between A and B (another hash), so a difference may be the scenario's, not the arm's`,
    );
  if (a.models.join() !== b.models.join())
    notes.push(`note: A ran on ${a.models.join(', ')}, B on ${b.models.join(', ')}`);
  if (oneModel) {
    const name = (sweep: SweepRuns) =>
      sweep.ensemble === undefined
        ? 'no ensemble'
        : `ensemble ${sweep.ensemble.name} (${sweep.ensemble.members} members)`;
    notes.push(`note: A ran ${name(a)}, B ${name(b)}: members do not correspond, so each side counts as one model`);
  }
  const sources = { a: dirA, b: dirB };
  const text = [renderCompareText(comparison, sources, { color: options.color === true }), ...notes].join('\n');
  const markdown = [renderCompareMarkdown(comparison, sources), ...notes.map((note) => `_${escapeCell(note)}_\n`)].join(
    '\n',
  );
  return { comparison, rows: comparison.rows, regressions: regressions(comparison), text, markdown, notes };
}

function requireArm(sweep: SweepRuns, arm: string, flag: string, side: string): void {
  const arms = [...new Set(sweep.cells.map((cell) => cell.arm))];
  if (!arms.includes(arm))
    throw UserInputError.single(flag, '', `an arm of sweep ${side} (${arms.join(', ')}); got '${arm}'`);
}
