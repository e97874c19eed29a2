import {
  addTally,
  type BehaviourStatistics,
  type BehaviourTally,
  emptyTally,
  statisticsOfTally,
  tallyTrajectory,
} from './behaviour-statistics.js';
import type { LabelledTrajectory } from './results-trajectories.js';
import { type ReadOptions, type ReadSummary, readTrajectories } from './trajectory-source.js';

/** How runs are grouped: by arm (a results folder's default), by scenario, or all together. */
export const GROUPINGS = ['arm', 'scenario', 'none'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface BehaviourGroup {
  /** The arm or scenario; `all` when runs are not grouped. */
  readonly key: string;
  readonly tally: BehaviourTally;
  readonly statistics: BehaviourStatistics;
}

export interface BehaviourMeasurement {
  readonly source: ReadSummary;
  readonly by: Grouping;
  /** In the order their first run was read. */
  readonly groups: readonly BehaviourGroup[];
}

/**
 * The behaviour statistics of the runs at `path` (readTrajectories), per group: each run
 * is tallied as it streams by, then dropped. `by` defaults to `arm` for a results folder
 * and `none` for a file (files carry no arms); `onRun` sees every run too, for figures
 * the tallies do not keep.
 *
 * @example
 * const { groups } = await measureBehaviour('results/nightly');
 * for (const group of groups) console.log(group.key, group.statistics.after.transient.identical);
 */
export async function measureBehaviour(
  path: string,
  options: ReadOptions & { readonly by?: Grouping; readonly onRun?: (labelled: LabelledTrajectory) => void } = {},
): Promise<BehaviourMeasurement> {
  const tallies = new Map<string, BehaviourTally>();
  let by = options.by;
  const source = await readTrajectories(
    path,
    (labelled) => {
      by ??= labelled.arm === undefined ? 'none' : 'arm';
      const key = (by === 'arm' ? labelled.arm : by === 'scenario' ? labelled.scenario : undefined) ?? 'all';
      let tally = tallies.get(key);
      if (tally === undefined) {
        tally = emptyTally();
        tallies.set(key, tally);
      }
      tallyTrajectory(tally, labelled.trajectory);
      options.onRun?.(labelled);
    },
    options,
  );
  return {
    source,
    by: by ?? 'none',
    groups: [...tallies].map(([key, tally]) => ({ key, tally, statistics: statisticsOfTally(tally) })),
  };
}

/** All groups' runs as one tally. */
export function pooledTally(groups: readonly BehaviourGroup[]): BehaviourTally {
  return groups.reduce((sum, group) => addTally(sum, group.tally), emptyTally());
}
