import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentDefinition, isAgentDefinition } from '../agents/define-agent.js';
import { runAgentSweep } from '../sweep/agent-sweep.js';
import { whereUserCodeRuns } from '../sweep/run-in-flight.js';
import { UserCodeExited } from '../user-module/process-exit-trap.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { replayCommand } from '../sweep/replay-command.js';
import { type Proportion, wilson } from '../stats/wilson.js';
import type { ResolvedSurviveOptions } from './survive-options.js';

/** How one scenario went: its success rate with its interval, and the runs that did not succeed. */
export interface ScenarioSurvival {
  /** The scenario as the user named it (an id or a file path), as `replay --scenario` takes it. */
  readonly scenario: string;
  readonly success: Proportion;
  /** The rate reached `minSuccess`. */
  readonly survived: boolean;
  /** Every run whose verdict is not `success`, in seed order. */
  readonly failing: readonly RunRecord[];
}

/** How the agent is named again by `replay --agent`, or why it cannot be. */
export type AgentReplay = { readonly kind: 'module'; readonly spec: string } | { readonly kind: 'unknown' };

/** The outcome of a `toSurvive` sweep, ready for a message. */
export interface Survival {
  /** The agent's arm name, `agent:<name>`. */
  readonly arm: string;
  readonly minSuccess: number;
  readonly sweepSeed: number;
  readonly scenarios: readonly ScenarioSurvival[];
  /** Every scenario reached `minSuccess`. */
  readonly survived: boolean;
  readonly agent: AgentReplay;
  /** The results folder, absolute, when `out` was given. */
  readonly outDir?: string;
}

/**
 * Runs the agent over each scenario's seeds (the sweep `run --agent` runs) and judges each
 * scenario's success rate against `minSuccess` on its own: a pooled rate would let an easy
 * scenario hide a failing one.
 *
 * @example
 * const survival = await survive('./src/agent.ts', ['fetch-transform-write'], resolveSurviveOptions({ seeds: 50 }));
 * survival.scenarios[0]!.success.rate // e.g. 0.94
 */
export async function survive(
  agent: AgentDefinition | string,
  scenarios: readonly string[],
  options: ResolvedSurviveOptions,
): Promise<Survival> {
  const { records, outDir } = await withExitRefused(() =>
    runAgentSweep({
      agent,
      scenarios,
      seeds: options.seeds,
      firstSeed: options.firstSeed,
      sweepSeed: options.sweepSeed,
      workers: options.workers,
      ...(options.out === undefined ? {} : { out: options.out }),
    }),
  );
  // Records come in sweep order, scenario by scenario, `seeds` each.
  const perScenario = scenarios.map((scenario, index): ScenarioSurvival => {
    const runs = records.slice(index * options.seeds, (index + 1) * options.seeds);
    const success = wilson(runs.filter((run) => run.verdict === 'success').length, runs.length);
    return {
      scenario,
      success,
      survived: runs.length > 0 && success.successes / success.trials >= options.minSuccess,
      failing: runs.filter((run) => run.verdict !== 'success'),
    };
  });
  const moduleSpec = typeof agent === 'string' ? agent : options.module;
  return {
    arm: records[0]?.arm ?? 'agent',
    minSuccess: options.minSuccess,
    sweepSeed: options.sweepSeed,
    scenarios: perScenario,
    survived: perScenario.every((scenario) => scenario.survived),
    agent: moduleSpec === undefined ? { kind: 'unknown' } : { kind: 'module', spec: agentSpecForShell(moduleSpec) },
    ...(outDir === undefined ? {} : { outDir }),
  };
}

/** Whether `value` is something `toSurvive` can run: a definition, or a module path. */
export function isSurvivable(value: unknown): value is AgentDefinition | string {
  return (typeof value === 'string' && value !== '') || isAgentDefinition(value);
}

/**
 * The agent module as `--agent` takes it in a shell opened where the test ran: `./` and a
 * path from the working directory when the module is under it (the line stays short and
 * works in any checkout), else the absolute path; `#export` kept.
 */
function agentSpecForShell(module: string | URL): string {
  const text = module instanceof URL ? module.href : module;
  const hash = text.startsWith('file:') ? text.indexOf('#') : text.lastIndexOf('#');
  const pathPart = hash === -1 ? text : text.slice(0, hash);
  const exportPart = hash === -1 ? '' : text.slice(hash);
  const path = pathPart.startsWith('file:') ? fileURLToPath(pathPart) : resolve(pathPart);
  const fromHere = relative(process.cwd(), path);
  const shown = fromHere.startsWith('..') || isAbsolute(fromHere) ? path : `./${fromHere}`;
  return `${shown}${exportPart}`;
}

/**
 * The command that replays one run of the sweep, as printed (`npx` runs the project's own
 * spiralbench), or undefined when the agent's module is unknown.
 *
 * @example
 * replayLine(survival, record) // 'npx spiralbench replay --scenario fetch-transform-write --arm agent:mine --seed 7 --agent ./src/agent.ts'
 */
export function replayLine(survival: Survival, run: RunRecord, scenario: string): string | undefined {
  if (survival.agent.kind === 'unknown') return undefined;
  return `npx ${replayCommand({ scenario, arm: run.arm, seed: run.seed, sweepSeed: survival.sweepSeed, agent: survival.agent.spec })}`;
}

/**
 * `work` with `process.exit` refused to user code: under a test runner the call throws
 * (vitest's own does), which a run would count as one failed run, and a gate whose other
 * runs clear the bar would pass on a sweep its agent ended. The first call is kept, and
 * once the sweep is over it fails the matcher, naming the run, as the CLI's exit 6 does.
 */
async function withExitRefused<T>(work: () => Promise<T>): Promise<T> {
  const original = process.exit;
  let exited: UserCodeExited | undefined;
  process.exit = ((code?: number | string | null) => {
    exited ??= new UserCodeExited(
      `user code called process.exit(${code === undefined ? '' : String(code)}) ${whereUserCodeRuns()}; the sweep did not finish, so toSurvive cannot pass on it (return or throw instead)`,
    );
    throw exited;
  }) as typeof process.exit;
  let result: T;
  try {
    result = await work();
  } finally {
    process.exit = original;
  }
  if (exited !== undefined) throw exited;
  return result;
}
