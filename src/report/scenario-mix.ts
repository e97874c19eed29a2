import { BUILT_IN_BY_NAME } from '../arms/arms.js';
import type { StoredSummary } from '../results/summary-schema.js';
import type { Robustness } from '../stats/robustness.js';
import { armRobustness } from './arm-effects.js';
import { leaderboard } from './leaderboard.js';
import type { SweepCell, SweepRuns } from './read-sweep.js';

/** On how many scenarios an arm has the highest right-outcome rate. */
export interface BestCount {
  readonly arm: string;
  /** Scenarios where it alone has the highest rate. */
  readonly best: number;
  /** Scenarios where it shares the highest rate with other arms (every arm, where all score the same). */
  readonly tiedBest: number;
}

/**
 * A scenario won by a guard only one arm of the sweep holds: that arm is best or tied best
 * there (not every arm tied), and its runs there recorded events no other arm's guards can emit.
 */
export interface Showcase {
  readonly scenario: string;
  readonly arm: string;
  /** The guards only this arm holds whose events its runs recorded here. */
  readonly guards: readonly string[];
  /** Those events, summed over the arm's runs on the scenario. */
  readonly events: number;
}

/** The answer over a subset of the scenarios: the arm on top and its gain over the baseline. */
export interface PartialAnswer {
  readonly scenarios: readonly string[];
  /** The leaderboard's first arm over these scenarios. */
  readonly top: string;
  /** Its right-outcome rate over them. */
  readonly rate: number;
  /** Its success gain over the baseline, each scenario counting once; null when the top arm is the baseline. */
  readonly gain: Robustness | null;
}

/** How the cross-scenario answer depends on which scenarios the sweep holds. */
export interface ScenarioMix {
  /** Every arm, in the sweep's arm order. */
  readonly best: readonly BestCount[];
  /** Scenarios where every arm has the same right-outcome rate (all tie). */
  readonly allTied: readonly string[];
  /** Showcase scenarios, in scenario order; a scenario can be one for several tied arms. */
  readonly showcases: readonly Showcase[];
  /** The answer without the showcase scenarios; undefined when there is none, or nothing else is left. */
  readonly withoutShowcases: PartialAnswer | undefined;
  /** Leave-one-scenario-out: the scenarios whose leaving out changes the top arm, with the arm then on top. */
  readonly leaveOneOut: ReadonlyArray<{ readonly scenario: string; readonly top: string }>;
}

/**
 * How the answer across scenarios follows the scenario mix, from the saved runs:
 * - per arm, on how many scenarios it is best or tied best (highest right-outcome rate;
 *   tied means equal rates);
 * - showcase scenarios: where an arm is best or tied best (not every arm tied) and its runs
 *   recorded events of a guard that no other arm of the sweep holds (from each guard
 *   descriptor's `events`; an event type that two arms' guards can emit proves nothing
 *   about either), and the answer without them;
 * - leave-one-scenario-out: the scenarios whose absence would put another arm on top.
 * The top arm is the leaderboard's, the same ranking as the recommendation's; a gain is
 * pooled over the scenarios in `pooledOver`, as the recommendation's is. Data-driven:
 * no scenario is named in code.
 *
 * @example
 * scenarioMix(runs, summary, 'none', new Set(scenarios)).showcases; // [{ scenario: 'model-outage', arm: 'all', guards: ['recovery'], events: 812 }]
 */
export function scenarioMix(
  runs: SweepRuns,
  summary: StoredSummary,
  baseline: string,
  pooledOver: ReadonlySet<string>,
): ScenarioMix {
  const scenarios = [...new Set(runs.cells.map((cell) => cell.scenario))];
  const arms = summary.arms.map((arm) => arm.name).filter((arm) => runs.cells.some((cell) => cell.arm === arm));
  const best = new Map(arms.map((arm) => [arm, { best: 0, tiedBest: 0 }]));
  const allTied: string[] = [];
  const winnersOf = new Map<string, ReadonlySet<string>>();
  for (const scenario of scenarios) {
    const cells = runs.cells.filter((cell) => cell.scenario === scenario);
    const rates = cells.map(rightRate);
    const top = Math.max(...rates);
    const winners = cells.filter((_, i) => rates[i] === top);
    if (winners.length === cells.length && cells.length > 1) allTied.push(scenario);
    else winnersOf.set(scenario, new Set(winners.map((cell) => cell.arm)));
    for (const cell of winners) {
      const count = best.get(cell.arm);
      if (count === undefined) continue;
      if (winners.length === 1) count.best += 1;
      else count.tiedBest += 1;
    }
  }

  // Only where the arm wins: a guard only one arm holds fires on many scenarios (loop
  // detection catches some thrash almost everywhere), and a scenario it fires on but does
  // not win says nothing about how the mix carries that arm.
  const showcases = findShowcases(
    runs.cells.filter((cell) => winnersOf.get(cell.scenario)?.has(cell.arm) === true),
    summary,
    arms,
  );
  const showcaseScenarios = new Set(showcases.map((showcase) => showcase.scenario));
  const rest = scenarios.filter((scenario) => !showcaseScenarios.has(scenario));
  const withoutShowcases =
    showcaseScenarios.size === 0 || rest.length === 0
      ? undefined
      : partialAnswer(runs, summary, baseline, rest, pooledOver);

  const topOver = (kept: readonly string[]) => {
    const cells = runs.cells.filter((cell) => kept.includes(cell.scenario));
    return leaderboard(
      cells,
      summary.cells.filter((cell) => kept.includes(cell.scenario)),
    )[0]?.arm;
  };
  const top = topOver(scenarios);
  const leaveOneOut =
    scenarios.length < 2
      ? []
      : scenarios.flatMap((left) => {
          const other = topOver(scenarios.filter((scenario) => scenario !== left));
          return other === undefined || other === top ? [] : [{ scenario: left, top: other }];
        });

  return {
    best: arms.map((arm) => ({ arm, ...(best.get(arm) ?? { best: 0, tiedBest: 0 }) })),
    allTied,
    showcases,
    withoutShowcases,
    leaveOneOut,
  };
}

const rightRate = (cell: SweepCell) => cell.right.reduce((sum, x) => sum + x, 0) / Math.max(1, cell.trials);

/** The event types a guard emits; a user's guard or a peer's loop declares none the results can see. */
const eventsOf = (guard: string): readonly string[] => BUILT_IN_BY_NAME.get(guard)?.events ?? [];

function findShowcases(cells: readonly SweepCell[], summary: StoredSummary, arms: readonly string[]): Showcase[] {
  const guardsOf = new Map(
    arms.map((arm) => [arm, new Set(summary.arms.find((entry) => entry.name === arm)?.guards.map((g) => g.guard))]),
  );
  // Event type → the arms holding a guard that emits it.
  const emitters = new Map<string, Set<string>>();
  for (const [arm, guards] of guardsOf)
    for (const guard of guards)
      for (const type of eventsOf(guard)) {
        const holders = emitters.get(type) ?? new Set<string>();
        holders.add(arm);
        emitters.set(type, holders);
      }
  const found: Showcase[] = [];
  for (const cell of cells) {
    const guards = guardsOf.get(cell.arm);
    if (guards === undefined) continue;
    const own = [...guards].filter((guard) => {
      const holders = arms.filter((arm) => guardsOf.get(arm)?.has(guard));
      return holders.length === 1;
    });
    let events = 0;
    const fired: string[] = [];
    for (const guard of own) {
      const exclusive = eventsOf(guard).filter((type) => emitters.get(type)?.size === 1);
      const n = exclusive.reduce((sum, type) => sum + (cell.events[type] ?? 0), 0);
      if (n > 0) {
        fired.push(guard);
        events += n;
      }
    }
    if (fired.length > 0) found.push({ scenario: cell.scenario, arm: cell.arm, guards: fired, events });
  }
  const order = [...new Set(cells.map((cell) => cell.scenario))];
  return found.sort((x, y) => order.indexOf(x.scenario) - order.indexOf(y.scenario));
}

function partialAnswer(
  runs: SweepRuns,
  summary: StoredSummary,
  baseline: string,
  scenarios: readonly string[],
  pooledOver: ReadonlySet<string>,
): PartialAnswer | undefined {
  const cells = runs.cells.filter((cell) => scenarios.includes(cell.scenario));
  const [row] = leaderboard(
    cells,
    summary.cells.filter((cell) => scenarios.includes(cell.scenario)),
  );
  if (row === undefined) return undefined;
  const pairs = scenarios
    .filter((scenario) => pooledOver.has(scenario))
    .flatMap((scenario) => {
      const base = cells.find((cell) => cell.scenario === scenario && cell.arm === baseline);
      const own = cells.find((cell) => cell.scenario === scenario && cell.arm === row.arm);
      return base === undefined || own === undefined ? [] : [[base, own] as const];
    });
  return {
    scenarios,
    top: row.arm,
    rate: row.rightOutcome.rate,
    gain: row.arm === baseline ? null : (armRobustness(pairs, 'right') ?? null),
  };
}
