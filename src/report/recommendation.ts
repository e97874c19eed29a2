import type { StoredEnsemble, StoredSummary } from '../results/summary-schema.js';
import { describe } from '../stats/descriptive.js';
import type { Robustness } from '../stats/robustness.js';
import { armRobustness, baselineArm, type EffectMetric } from './arm-effects.js';
import { leaderboard, type LeaderboardRow } from './leaderboard.js';
import { costOf, priceFor, type PriceChoice } from './prices.js';
import type { SweepCell, SweepRuns } from './read-sweep.js';
import { type ScenarioMix, scenarioMix } from './scenario-mix.js';

/** One arm against the baseline on one scenario: how each figure moved, and how it holds across members. */
export interface ScenarioEffect {
  readonly scenario: string;
  readonly arm: string;
  readonly baseline: string;
  /** Right outcome (success, or an escalation where the scenario is impossible), per run. */
  readonly success: Robustness;
  /** Tool calls and input tokens per run (the mean moves with the tail and adds up over members). */
  readonly toolCalls: Robustness;
  readonly inputTokens: Robustness;
  readonly p95ToolCalls: { readonly baseline: number; readonly arm: number };
  readonly p95InputTokens: { readonly baseline: number; readonly arm: number };
  readonly harmful: { readonly baseline: number; readonly arm: number };
}

/** One arm over every scenario of the sweep: the leaderboard's figures, and the robustness of its gain. */
export interface ArmAnswer extends LeaderboardRow {
  /** Its guards in order (a peer arm: `peer:<name>`; the bare loop: none). */
  readonly guards: readonly string[];
  /** Runs judged harmful (a duplicated or forbidden write), over all scenarios. */
  readonly harmful: number;
  /**
   * Runs that ended in an error (outcome `failed`), over all scenarios. Such an arm is never
   * recommended: its short tail or low cost may only say how soon it crashed.
   */
  readonly errored: number;
  /** Estimated dollars per right outcome; undefined when the model has no price or nothing went right. */
  readonly costPerSuccess: number | undefined;
  /** Against the baseline, each scenario counting once; null for the baseline itself. */
  readonly vsBaseline: {
    readonly success: Robustness;
    readonly toolCalls: Robustness;
    readonly inputTokens: Robustness;
    /** Harmful runs (a duplicated or forbidden write) per run. */
    readonly harmful: Robustness;
  } | null;
  /** Per scenario against the baseline; empty for the baseline. */
  readonly scenarios: readonly ScenarioEffect[];
}

/** The sweep's answer to "which safeguard is worth it", from its saved runs. */
export interface Answer {
  readonly baseline: string;
  readonly scenarios: readonly string[];
  /** Arms in leaderboard order: right outcome, then fewer p95 tool calls, then fewer p95 input tokens. */
  readonly arms: readonly ArmAnswer[];
  /** Members the robustness statistics saw (1: a sweep without an ensemble). */
  readonly members: number;
  /**
   * Scenarios run on one persona of their own in a sweep with an ensemble (a scenario
   * naming its persona keeps it): they count in every figure but the pooled robustness,
   * which is judged on the scenarios that ran the ensemble's members. Empty otherwise.
   */
  readonly ownPersonaScenarios: readonly string[];
  readonly ensemble: StoredEnsemble | undefined;
  readonly price: PriceChoice | undefined;
  /** The sweep has peer frameworks' arms: it is an arena. */
  readonly arena: boolean;
  /** How the answer follows the scenario mix: best counts, showcase scenarios, leave-one-scenario-out. */
  readonly mix: ScenarioMix;
}

const key = (scenario: string, arm: string) => `${scenario}\u0000${arm}`;

/**
 * Every arm's difference from the baseline arm (`none`, else the first) on each
 * scenario, with its robustness across the ensemble: what the run tables, the Markdown
 * summary and the HTML report state beside each arm. Keyed by scenario and arm.
 */
export function scenarioEffects(runs: SweepRuns, baseline: string): Map<string, ScenarioEffect> {
  const byKey = new Map(runs.cells.map((cell) => [key(cell.scenario, cell.arm), cell]));
  const effects = new Map<string, ScenarioEffect>();
  for (const cell of runs.cells) {
    const base = byKey.get(key(cell.scenario, baseline));
    if (base === undefined || cell.arm === baseline) continue;
    const effect = scenarioEffect(base, cell);
    if (effect !== undefined) effects.set(key(cell.scenario, cell.arm), effect);
  }
  return effects;
}

/** The effect of one arm on one scenario, looked up in `scenarioEffects`' map. */
export function effectOf(
  effects: ReadonlyMap<string, ScenarioEffect>,
  scenario: string,
  arm: string,
): ScenarioEffect | undefined {
  return effects.get(key(scenario, arm));
}

function scenarioEffect(base: SweepCell, cell: SweepCell): ScenarioEffect | undefined {
  const pair = [[base, cell]] as const;
  const success = armRobustness(pair, 'right');
  const toolCalls = armRobustness(pair, 'toolCalls');
  const inputTokens = armRobustness(pair, 'inputTokens');
  if (success === undefined || toolCalls === undefined || inputTokens === undefined) return undefined;
  return {
    scenario: cell.scenario,
    arm: cell.arm,
    baseline: base.arm,
    success,
    toolCalls,
    inputTokens,
    p95ToolCalls: { baseline: describe(base.toolCalls).p95, arm: describe(cell.toolCalls).p95 },
    p95InputTokens: { baseline: describe(base.inputTokens).p95, arm: describe(cell.inputTokens).p95 },
    harmful: { baseline: total(base.harmful), arm: total(cell.harmful) },
  };
}

/**
 * The cross-scenario answer: each arm pooled over the sweep's scenarios (the arena
 * leaderboard's ranking and figures), its harmful runs and estimated cost per right
 * outcome, and its difference from the baseline with its robustness across members, both
 * pooled (each scenario counting once) and per scenario. Pure: saved runs in, numbers out.
 *
 * @example
 * const answer = recommend(await readSweep('results/latest'), summary);
 * answer.arms[0]?.arm; // the best arm by right outcome
 */
export function recommend(runs: SweepRuns, summary: StoredSummary): Answer {
  const arms = summary.arms.map((arm) => arm.name).filter((arm) => runs.cells.some((cell) => cell.arm === arm));
  const baseline = baselineArm(arms) ?? '';
  const scenarios = [...new Set(runs.cells.map((cell) => cell.scenario))];
  const price = priceFor(summary.model);
  const effects = scenarioEffects(runs, baseline);
  const board = leaderboard(runs.cells, summary.cells);
  // Members are compared across scenarios only where they played: a scenario on its own
  // persona has one, and would leave the intersection of members with that one alone.
  const ensembleScenarios = new Set(
    runs.cells.filter((cell) => cell.members.some((member) => member !== cell.members[0])).map((cell) => cell.scenario),
  );
  const ownPersonaScenarios =
    ensembleScenarios.size === 0 ? [] : scenarios.filter((scenario) => !ensembleScenarios.has(scenario));
  const assessed = new Set(scenarios.filter((scenario) => !ownPersonaScenarios.includes(scenario)));
  let members = 1;
  const answers = board.map((row): ArmAnswer => {
    const mine = runs.cells.filter((cell) => cell.arm === row.arm);
    const right = mine.reduce((sum, cell) => sum + total(cell.right), 0);
    // Priced call by call where the records say (a fallback or a summary model at its own
    // price); results without per-run costs are priced at the sweep's model's list price.
    const recorded = mine.every((cell) => cell.costUsd !== null)
      ? mine.reduce((sum, cell) => sum + (cell.costUsd ?? 0), 0)
      : undefined;
    const cost =
      price === undefined
        ? undefined
        : (recorded ??
          costOf(
            price.price,
            mine.reduce((sum, cell) => sum + total(cell.inputTokens), 0),
            mine.reduce((sum, cell) => sum + total(cell.outputTokens), 0),
          ));
    const pairs = scenarios.flatMap((scenario) => {
      const base = runs.cells.find((cell) => cell.scenario === scenario && cell.arm === baseline);
      const own = mine.find((cell) => cell.scenario === scenario);
      return base === undefined || own === undefined ? [] : [[base, own] as const];
    });
    const assessedPairs = pairs.filter(([base]) => assessed.has(base.scenario));
    const pooled = (metric: EffectMetric) => (row.arm === baseline ? undefined : armRobustness(assessedPairs, metric));
    const success = pooled('right');
    const toolCalls = pooled('toolCalls');
    const inputTokens = pooled('inputTokens');
    const harmful = pooled('harmful');
    if (success !== undefined) members = Math.max(members, success.members);
    return {
      ...row,
      guards: guardsOf(summary, row.arm),
      harmful: mine.reduce((sum, cell) => sum + total(cell.harmful), 0),
      errored: summary.cells
        .filter((cell) => cell.arm === row.arm)
        .reduce((sum, cell) => sum + (cell.outcomes['failed'] ?? 0), 0),
      costPerSuccess: cost === undefined || right === 0 ? undefined : cost / right,
      vsBaseline:
        success === undefined || toolCalls === undefined || inputTokens === undefined || harmful === undefined
          ? null
          : { success, toolCalls, inputTokens, harmful },
      scenarios: scenarios.flatMap((scenario) => {
        const effect = effectOf(effects, scenario, row.arm);
        return effect === undefined ? [] : [effect];
      }),
    };
  });
  return {
    baseline,
    scenarios,
    arms: answers,
    members,
    ownPersonaScenarios,
    ensemble: runs.ensemble,
    price,
    arena: summary.arms.some(
      (arm) => arm.peer !== undefined || (arm as { readonly agent?: unknown }).agent !== undefined,
    ),
    mix: scenarioMix(runs, summary, baseline, assessed),
  };
}

function guardsOf(summary: StoredSummary, arm: string): string[] {
  const stored = summary.arms.find((entry) => entry.name === arm);
  if (stored === undefined) return [];
  const peer = (stored.peer as { readonly peer?: unknown } | undefined)?.peer;
  if (stored.peer !== undefined) return [typeof peer === 'string' ? `${peer}'s own loop` : arm];
  // A user's agent (summary.json writes where it came from under `agent`): its own loop too.
  if ((stored as { readonly agent?: unknown }).agent !== undefined) return [`${arm}'s own loop`];
  return stored.guards.map((guard) => guard.guard);
}

function total(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] ?? 0;
  return sum;
}
