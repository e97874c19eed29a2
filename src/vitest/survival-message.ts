import { describeFailure } from '../run/failure-reason.js';
import type { Proportion } from '../stats/wilson.js';
import { replayLine, type ScenarioSurvival, type Survival } from './survival.js';

/** Failing seeds listed per scenario; the rest are counted, and all are in the results folder. */
const SHOWN = 10;

const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;

/** `success 62.0% (95% Wilson interval 52.2%–70.9%, n = 100)`: the rate never without its uncertainty. */
export function rateText(success: Proportion): string {
  return `success ${percent(success.rate)} (95% Wilson interval ${percent(success.low)}–${percent(success.high)}, n = ${success.trials})`;
}

function scenarioLines(survival: Survival, scenario: ScenarioSurvival, isNot: boolean): string[] {
  const verdict = scenario.survived ? '≥' : '<';
  const lines = [
    `${scenario.scenario}: ${rateText(scenario.success)} ${verdict} minSuccess ${percent(survival.minSuccess)}`,
  ];
  // Under .not the complaint is that it survived: failing seeds are no help then.
  if (isNot || scenario.survived || scenario.failing.length === 0) return lines;
  const shown = scenario.failing.slice(0, SHOWN);
  lines.push(
    `  ${scenario.failing.length} failing seed${scenario.failing.length === 1 ? '' : 's'}${scenario.failing.length > SHOWN ? `, the first ${SHOWN}` : ''}:`,
  );
  for (const run of shown) {
    const why = run.failure_reason === undefined ? run.verdict_reason : describeFailure(run.failure_reason);
    lines.push(`  seed ${run.seed}: ${run.verdict} (${run.outcome}) — ${why}`);
    const replay = replayLine(survival, run, scenario.scenario);
    if (replay !== undefined) lines.push(`    ${replay}`);
  }
  return lines;
}

/**
 * The matcher's message: for each scenario the rate, its Wilson interval and n against
 * the bar; on a failure the first failing seeds with why each failed and the command that
 * replays it, or how to get those commands when the agent's module is unknown.
 *
 * @example
 * survivalMessage(survival, false)
 * // expected agent:mine to survive (every scenario at success ≥ minSuccess)
 * // fetch-transform-write: success 62.0% (95% Wilson interval 52.2%–70.9%, n = 100) < minSuccess 90.0%
 * //   38 failing seeds, the first 10:
 * //   seed 3: failure (completed) — the outbox is missing u_1042
 * //     npx spiralbench replay --scenario fetch-transform-write --arm agent:mine --seed 3 --agent ./src/agent.ts
 */
export function survivalMessage(survival: Survival, isNot: boolean): string {
  const lines = [
    isNot
      ? `expected ${survival.arm} not to survive (some scenario at success < minSuccess), but every scenario reached it`
      : `expected ${survival.arm} to survive (every scenario at success ≥ minSuccess)`,
    ...survival.scenarios.flatMap((scenario) => scenarioLines(survival, scenario, isNot)),
  ];
  const anyShown = survival.scenarios.some((scenario) => !scenario.survived && scenario.failing.length > 0);
  if (!isNot && anyShown && survival.agent.kind === 'unknown')
    lines.push(
      'replay commands need the agent module: give its path (`expect("./src/agent.ts").toSurvive(...)`) or the `module` option (`{ module: new URL("../src/agent.ts", import.meta.url) }`)',
    );
  if (survival.outDir !== undefined) lines.push(`results: ${survival.outDir} (spiralbench report reads it)`);
  return lines.join('\n');
}
