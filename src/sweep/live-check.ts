import type { MetFault } from '../tools/tool-fault.js';
import type { ToolErrorCode } from '../tools/tool-error.js';
import type { ClientCall } from '../live/live-tool-host.js';
import type { Scenario } from '../scenarios/loader.js';
import { wallClock } from '../clock/wall-clock.js';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from '../arms/arms.js';
import { LiveSession, type LiveLabel, type LiveOptions } from '../run/live-session.js';
import { runOne } from '../arms/run-one.js';
import type { RunOutput } from '../run/run-session.js';
import { liveModel } from '../run/model-source.js';

export interface LiveCheckOptions {
  readonly scenario: Scenario;
  readonly arms: readonly Arm[];
  readonly seeds: number;
  /** @default 1 */
  readonly baseSeed?: number;
  /** @default 0 */
  readonly sweepSeed?: number;
  /** @default the LiveSession defaults */
  readonly live?: Omit<LiveOptions, 'sweepSeed'>;
  readonly onProgress?: (done: number, total: number) => void;
}

/** One execution as the comparison reads it, in either mode. */
export interface CheckedCall {
  readonly tool: string;
  readonly fault: MetFault | null;
  readonly code: ToolErrorCode | null;
}

/** One seed of one arm, run both ways. */
export interface LiveCheckRun {
  readonly arm: string;
  readonly seed: number;
  /** Every execution met the same fault, in the same order, in both modes. */
  readonly faults_match: boolean;
  /** The client classified every execution with the same error code as the virtual run. */
  readonly classes_match: boolean;
  /** Every live execution's observed fault was the one the tool server decided (rendering fidelity). */
  readonly rendered_as_decided: boolean;
  readonly verdict_match: boolean;
  readonly virtual: {
    readonly verdict: string;
    readonly outcome: string;
    readonly tool_executions: number;
    readonly calls: readonly CheckedCall[];
  };
  readonly live: {
    readonly verdict: string;
    readonly outcome: string;
    readonly tool_executions: number;
    readonly wall_ms: number;
    readonly calls: readonly CheckedCall[];
  };
  /** The first execution where the modes part, if they do. */
  readonly first_difference: {
    readonly index: number;
    readonly virtual: CheckedCall | null;
    readonly live: CheckedCall | null;
  } | null;
}

export interface LiveCheckArm {
  readonly arm: string;
  readonly runs: number;
  readonly faults_match: number;
  readonly classes_match: number;
  readonly rendered_as_decided: number;
  readonly verdict_match: number;
  readonly live_wall_seconds: number;
  readonly virtual_wall_seconds: number;
}

export interface LiveCheckResult {
  readonly scenario: string;
  readonly seeds: { readonly base: number; readonly count: number };
  readonly sweep_seed: number;
  readonly live: LiveLabel;
  readonly arms: readonly LiveCheckArm[];
  readonly runs: readonly LiveCheckRun[];
}

const sameCall = (a: CheckedCall | undefined, b: CheckedCall | undefined): boolean =>
  a?.tool === b?.tool && a?.fault === b?.fault && a?.code === b?.code;

function firstDifference(
  virtual: readonly CheckedCall[],
  live: readonly CheckedCall[],
): LiveCheckRun['first_difference'] {
  for (let i = 0; i < Math.max(virtual.length, live.length); i++) {
    if (!sameCall(virtual[i], live[i])) return { index: i, virtual: virtual[i] ?? null, live: live[i] ?? null };
  }
  return null;
}

/**
 * Runs the same seeds virtually and live and compares, per run, the faults the tools met
 * and the classes the executor was handed. The fault decisions are the same seeded draws
 * in both modes, so any difference is the rendering, the classification, or a run that
 * took another path because real time passed differently.
 */
export async function liveCheck(options: LiveCheckOptions): Promise<LiveCheckResult> {
  const agents = options.arms.filter((arm) => arm.peer !== undefined || arm.agent !== undefined);
  if (agents.length > 0)
    throw UserInputError.single(
      '--arms',
      '',
      `our arms only: agent arms (${agents.map((arm) => arm.name).join(', ')}) do not run live yet`,
    );
  const base = options.baseSeed ?? 1;
  const sweepSeed = options.sweepSeed ?? 0;
  const session = new LiveSession({ ...options.live, sweepSeed });
  const runs: LiveCheckRun[] = [];
  const arms: LiveCheckArm[] = [];
  const total = options.arms.length * options.seeds;
  try {
    for (const arm of options.arms) {
      let virtualMs = 0;
      let liveMs = 0;
      const armRuns: LiveCheckRun[] = [];
      for (let seed = base; seed < base + options.seeds; seed++) {
        const spec = { sweepSeed, scenario: options.scenario, arm, seed };
        const virtualCalls: CheckedCall[] = [];
        let started = wallClock.ms();
        const virtual = await runOne({
          ...spec,
          onExecution: (tool, execution) =>
            virtualCalls.push({
              tool,
              fault: execution.fault,
              code: execution.kind === 'error' ? execution.error.code : null,
            }),
        });
        virtualMs += wallClock.ms() - started;
        started = wallClock.ms();
        const live = await runOne({ ...spec, model: liveModel(session) });
        liveMs += wallClock.ms() - started;
        armRuns.push(compare(arm.name, seed, virtual, virtualCalls, live));
        options.onProgress?.(runs.length + armRuns.length, total);
      }
      runs.push(...armRuns);
      const count = (test: (run: LiveCheckRun) => boolean): number => armRuns.filter(test).length;
      arms.push({
        arm: arm.name,
        runs: armRuns.length,
        faults_match: count((run) => run.faults_match),
        classes_match: count((run) => run.classes_match),
        rendered_as_decided: count((run) => run.rendered_as_decided),
        verdict_match: count((run) => run.verdict_match),
        live_wall_seconds: Math.round(liveMs / 100) / 10,
        virtual_wall_seconds: Math.round(virtualMs / 100) / 10,
      });
    }
  } finally {
    await session.close();
  }
  return {
    scenario: options.scenario.id,
    seeds: { base, count: options.seeds },
    sweep_seed: sweepSeed,
    live: session.label(),
    arms,
    runs,
  };
}

function compare(
  arm: string,
  seed: number,
  virtual: RunOutput,
  virtualCalls: readonly CheckedCall[],
  live: RunOutput,
): LiveCheckRun {
  const report = live.live;
  if (report === undefined || live.record.live === undefined)
    throw new Error(`seed ${seed}: the live run left no live report`);
  const liveCalls: CheckedCall[] = report.client.map(({ tool, fault, code }: ClientCall) => ({ tool, fault, code }));
  const sameLength = virtualCalls.length === liveCalls.length;
  return {
    arm,
    seed,
    faults_match:
      sameLength &&
      virtualCalls.every((call, i) => call.tool === liveCalls[i]?.tool && call.fault === liveCalls[i]?.fault),
    classes_match:
      sameLength &&
      virtualCalls.every((call, i) => call.tool === liveCalls[i]?.tool && call.code === liveCalls[i]?.code),
    rendered_as_decided:
      report.served.length === liveCalls.length &&
      report.served.every((served, i) => served.tool === liveCalls[i]?.tool && served.fault === liveCalls[i]?.fault),
    verdict_match: virtual.record.verdict === live.record.verdict,
    virtual: {
      verdict: virtual.record.verdict,
      outcome: virtual.record.outcome,
      tool_executions: virtual.record.tool_executions,
      calls: virtualCalls,
    },
    live: {
      verdict: live.record.verdict,
      outcome: live.record.outcome,
      tool_executions: live.record.tool_executions,
      wall_ms: live.record.live.wall_ms,
      calls: liveCalls,
    },
    first_difference: firstDifference(virtualCalls, liveCalls),
  };
}
