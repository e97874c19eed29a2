import type { MemberRuns, Stratum } from '../stats/member-effects.js';
import { assessRobustness, type Robustness } from '../stats/robustness.js';
import type { SweepCell } from './read-sweep.js';

/** A per-run figure whose difference between arms is assessed across members. */
export type EffectMetric = 'right' | 'toolCalls' | 'inputTokens' | 'harmful';

const COLUMNS: Readonly<Record<EffectMetric, (cell: SweepCell) => ArrayLike<number>>> = {
  right: (cell) => cell.right,
  toolCalls: (cell) => cell.toolCalls,
  inputTokens: (cell) => cell.inputTokens,
  harmful: (cell) => cell.harmful,
};

export interface StratumOptions {
  /** Count every run as member 0: the two sides ran different ensembles, so members do not correspond. @default false */
  readonly oneModel?: boolean;
}

/**
 * The runs of two cells of one scenario (A, then B) as a stratum for `assessRobustness`,
 * grouped by ensemble member. Runs pair up by seed when both cells hold the same seeds,
 * each with the same member on both sides (two arms of one sweep always do): paired
 * differences take out what the two runs shared (the faults, the member). Otherwise A
 * and B are independent samples of each member.
 */
export function cellStratum(a: SweepCell, b: SweepCell, metric: EffectMetric, options: StratumOptions = {}): Stratum {
  const member = (cell: SweepCell, i: number) => (options.oneModel === true ? 0 : (cell.members[i] ?? 0));
  const valuesA = COLUMNS[metric](a);
  const valuesB = COLUMNS[metric](b);
  const indexB = new Map<number, number>();
  for (let i = 0; i < b.seeds.length; i++) indexB.set(b.seeds[i] ?? Number.NaN, i);
  const paired =
    a.seeds.length === b.seeds.length &&
    Array.from(a.seeds).every((seed, i) => {
      const j = indexB.get(seed);
      return j !== undefined && member(a, i) === member(b, j);
    });
  const byMember = new Map<number, { a: number[]; b: number[] }>();
  const entry = (m: number) => {
    let found = byMember.get(m);
    if (found === undefined) byMember.set(m, (found = { a: [], b: [] }));
    return found;
  };
  for (let i = 0; i < a.seeds.length; i++) {
    const runs = entry(member(a, i));
    runs.a.push(valuesA[i] ?? 0);
    if (paired) runs.b.push(valuesB[indexB.get(a.seeds[i] ?? Number.NaN) ?? 0] ?? 0);
  }
  if (!paired) for (let j = 0; j < b.seeds.length; j++) entry(member(b, j)).b.push(valuesB[j] ?? 0);
  const members: MemberRuns[] = [...byMember.entries()]
    .sort(([x], [y]) => x - y)
    .map(([m, runs]) => ({ member: m, a: runs.a, b: runs.b }));
  return { paired, members };
}

/**
 * How B's difference from A holds across the ensemble's members, over one or several
 * scenarios (each pair of cells one scenario, each scenario counting once).
 *
 * @example
 * const success = armRobustness([[noneCell, recoverCell]], 'right');
 * success?.label; // 'robust'
 */
export function armRobustness(
  pairs: ReadonlyArray<readonly [SweepCell, SweepCell]>,
  metric: EffectMetric,
  options: StratumOptions = {},
): Robustness | undefined {
  if (pairs.length === 0) return undefined;
  return assessRobustness(pairs.map(([a, b]) => cellStratum(a, b, metric, options)));
}

/** The arm the others are measured against: `none` when the sweep has it, else its first arm. */
export function baselineArm(arms: readonly string[]): string | undefined {
  return arms.includes('none') ? 'none' : arms[0];
}
