import type { StoredSummary } from '../results/summary-schema.js';
import type { RunTable } from './run-table.js';

/** Flipped seeds listed of each kind, lost and gained: a page is read by a person; the counts are whole. */
export const MAX_FLIPPED = 1000;

/** One side of a diff: a sweep, and optionally one of its arms (then the other side names an arm too). */
export interface DiffSide {
  readonly name: string;
  readonly summary: StoredSummary;
  readonly table: RunTable;
  readonly arm?: string;
}

interface Rate {
  readonly runs: number;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** A cell on both sides: its success rate with its 95% interval, and how far it moved. */
export interface MovedCell {
  readonly scenario: string;
  /** The arm (two sweeps), or `a → b` (two arms). */
  readonly arm: string;
  readonly a: Rate;
  readonly b: Rate;
  /** b − a, in rate (0.1 = 10 points). */
  readonly moved: number;
  /** The two intervals do not overlap: a move beyond the seeds' noise. */
  readonly clear: boolean;
}

/** A seed that succeeded on one side and not on the other. */
export interface FlippedSeed {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly a: { readonly arm: string; readonly verdict: string };
  readonly b: { readonly arm: string; readonly verdict: string };
  /** `lost`: success on a, not on b; `gained`: the other way. */
  readonly kind: 'lost' | 'gained';
}

export interface SweepDiff {
  readonly cells: readonly MovedCell[];
  /** The flipped seeds, lost first, each in file order, at most MAX_FLIPPED of each kind; none when the seeds are not paired. */
  readonly flipped: readonly FlippedSeed[];
  /** How many seeds flipped each way, all of them. */
  readonly flips: { readonly lost: number; readonly gained: number };
  /**
   * Why seeds are not compared, when they are not: the same seed is the same task under
   * the same faults only in sweeps of one sweep seed, ensemble and scenario files.
   */
  readonly unpaired?: string;
}

/** Why the two sides' seeds are not the same runs of the same tasks, or undefined when they are. */
function unpairedBecause(a: StoredSummary, b: StoredSummary): string | undefined {
  if (a.sweep_seed !== b.sweep_seed)
    return `the sweeps have other sweep seeds (${a.sweep_seed} and ${b.sweep_seed}): a seed meets other faults in each`;
  if (a.ensemble?.hash !== b.ensemble?.hash) return 'the sweeps ran other persona ensembles';
  // An ensemble's member is counted from the sweep's first seed: seed s is another persona in each.
  if (a.ensemble !== undefined && a.seeds.base !== b.seeds.base)
    return `the sweeps' seeds start at ${a.seeds.base} and ${b.seeds.base}, so a seed is played by another member of the ensemble in each`;
  const hashes = new Map(a.scenarios.map((scenario) => [scenario.id, scenario.hash]));
  const changed = b.scenarios.find((scenario) => hashes.has(scenario.id) && hashes.get(scenario.id) !== scenario.hash);
  if (changed !== undefined) return `${changed.id} is another scenario file in each sweep`;
  return undefined;
}

/** Why there is nothing to pair, when the two sides share no cell or no seed. */
function nothingShared(a: DiffSide, b: DiffSide, sharedCells: number): string | undefined {
  if (sharedCells === 0)
    return a.arm === undefined
      ? 'the sweeps share no (scenario, arm) cell'
      : `the two arms share no scenario between ${a.name} and ${b.name}`;
  const from = Math.max(a.summary.seeds.base, b.summary.seeds.base);
  const to = Math.min(a.summary.seeds.base + a.summary.seeds.count, b.summary.seeds.base + b.summary.seeds.count);
  if (from >= to) {
    const range = ({ seeds }: StoredSummary) => `${seeds.base}–${seeds.base + seeds.count - 1}`;
    return `the sweeps share no seed (${range(a.summary)} and ${range(b.summary)})`;
  }
  return undefined;
}

/**
 * Two sweeps side by side (cells joined by scenario and arm, runs by scenario, arm and
 * seed), or two arms of sweeps (cells by scenario, runs by scenario and seed): the cells
 * that moved, with their intervals, and the seeds that flipped between success and
 * anything else. The same seed is the same task under the same faults on both sides, so a
 * flipped seed is where to read the mechanism.
 *
 * @example
 * diffSweeps({ name: 'latest', summary, table, arm: 'none' }, { name: 'latest', summary, table, arm: 'article' });
 */
export function diffSweeps(a: DiffSide, b: DiffSide): SweepDiff {
  const byArm = a.arm !== undefined && b.arm !== undefined;
  const cellKey = (scenario: string, arm: string) => (byArm ? scenario : `${scenario}\0${arm}`);
  const cellsOf = (side: DiffSide) =>
    new Map(
      side.summary.cells
        .filter((cell) => side.arm === undefined || cell.arm === side.arm)
        .map((cell) => [cellKey(cell.scenario, cell.arm), cell]),
    );
  const left = cellsOf(a);
  const right = cellsOf(b);
  const rate = (cell: StoredSummary['cells'][number]): Rate => ({
    runs: cell.runs,
    rate: cell.success.rate,
    low: cell.success.low,
    high: cell.success.high,
  });
  const cells: MovedCell[] = [];
  for (const [key, before] of left) {
    const after = right.get(key);
    if (after === undefined) continue;
    cells.push({
      scenario: before.scenario,
      arm: byArm ? `${before.arm} → ${after.arm}` : before.arm,
      a: rate(before),
      b: rate(after),
      moved: after.success.rate - before.success.rate,
      clear: after.success.low > before.success.high || after.success.high < before.success.low,
    });
  }
  const unpaired = unpairedBecause(a.summary, b.summary) ?? nothingShared(a, b, cells.length);
  if (unpaired !== undefined) return { cells, flipped: [], flips: { lost: 0, gained: 0 }, unpaired };
  // Each side's runs by cell and seed: B's verdicts looked up as A's runs are walked in file order.
  const success = new Map<string, Map<number, { arm: string; verdict: string }>>();
  const each = (side: DiffSide, visit: (run: ReturnType<RunTable['at']>) => void) => {
    for (let row = 0; row < side.table.size; row++) {
      const run = side.table.at(row);
      if (side.arm === undefined || run.arm === side.arm) visit(run);
    }
  };
  each(b, (run) => {
    const key = cellKey(run.scenario, run.arm);
    let seeds = success.get(key);
    if (seeds === undefined) success.set(key, (seeds = new Map()));
    seeds.set(run.seed, { arm: run.arm, verdict: run.verdict });
  });
  const lost: FlippedSeed[] = [];
  const gained: FlippedSeed[] = [];
  const count = { lost: 0, gained: 0 };
  each(a, (run) => {
    const other = success.get(cellKey(run.scenario, run.arm))?.get(run.seed);
    if (other === undefined || (run.verdict === 'success') === (other.verdict === 'success')) return;
    const kind = run.verdict === 'success' ? 'lost' : 'gained';
    count[kind] += 1;
    const list = kind === 'lost' ? lost : gained;
    if (list.length >= MAX_FLIPPED) return;
    list.push({
      scenario: run.scenario,
      arm: byArm ? `${run.arm} → ${other.arm}` : run.arm,
      seed: run.seed,
      a: { arm: run.arm, verdict: run.verdict },
      b: other,
      kind,
    });
  });
  return { cells, flipped: [...lost, ...gained], flips: count };
}
