import { resolve } from 'node:path';
import type { Arm } from '../arms/arms.js';
import { checkAgentSweep } from '../arms/agent-checks.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { loadScenarioSources } from './scenario-source.js';
import { runSweep } from './sweep.js';
import type { SweepSummary } from './sweep-summary.js';
import { UserInputError } from '../user-input-error.js';
import {
  type AgentRef,
  agentArmName,
  agentOf,
  checkAgentSettings,
  inlineAgent,
  parseAgentSpec,
} from '../arms/agent-arm.js';
import type { AgentDefinition } from '../agents/define-agent.js';
import { inProcessModel } from '../run/model-source.js';

/**
 * One agent over some scenarios and seeds, from code (a test, a CI script).
 *
 * @example
 * const options: AgentSweepOptions = { agent: './agents/mine.ts#mine', scenarios: ['fetch-transform-write'], seeds: 500, workers: 4, out: 'results/mine' };
 */
export interface AgentSweepOptions {
  /** The agent: a definition made in this process, or the path of a module that exports one (`path#export` picks an export). */
  readonly agent: AgentDefinition | string;
  /** Bundled scenario ids or scenario file paths. */
  readonly scenarios: readonly string[];
  /** Runs per scenario. */
  readonly seeds: number;
  /** @default 1 */
  readonly firstSeed?: number;
  /** @default 0 */
  readonly sweepSeed?: number;
  /** The agent's settings, parsed by its schema. @default {} */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** A results folder (runs.jsonl, runs.csv, summary.json, traces.jsonl), as `run --out` writes it. @default nothing written */
  readonly out?: string;
  /**
   * Worker threads, for an agent given by module path (a worker imports the module
   * itself). A definition object cannot cross into a worker: it runs in this thread.
   * @default 1
   */
  readonly workers?: number;
}

/**
 * What `runAgentSweep` resolves to.
 *
 * @example
 * const { records, summary } = await runAgentSweep({ agent: mine, scenarios: ['fetch-transform-write'], seeds: 200 });
 * const failed = records.filter((record) => record.verdict !== 'success').map((record) => record.seed);
 * console.log(summary.cells[0]!.success); // { successes, trials, rate, low, high }
 */
export interface AgentSweepResult {
  /** Every run's record, in sweep order (scenario, then seed). */
  readonly records: readonly RunRecord[];
  /** What `summary.json` holds: a cell per scenario with success and its interval, percentiles, pass^k. */
  readonly summary: SweepSummary;
  /** The results folder, absolute, when `out` was given. */
  readonly outDir?: string;
}

/**
 * Runs one agent over scenarios and seeds, exactly as `spiralbench run --agent` would:
 * the same world, seeded faults and judge, the same records.
 *
 * @example
 * const { summary } = await runAgentSweep({ agent: myAgent, scenarios: ['fetch-transform-write'], seeds: 200 });
 * const success = summary.cells[0]!.success.rate;
 */
export async function runAgentSweep(options: AgentSweepOptions): Promise<AgentSweepResult> {
  const where = { source: 'agent' } as const;
  const ref: AgentRef =
    typeof options.agent === 'string'
      ? { kind: 'module', ...parseAgentSpec(options.agent, process.cwd()), settings: options.settings ?? {} }
      : inlineAgent(options.agent, options.settings ?? {});
  const definition = typeof options.agent === 'string' ? await agentOf(ref, where) : options.agent;
  checkAgentSettings(definition, ref, where);
  if (options.scenarios.length === 0) throw UserInputError.single('scenarios', '', 'at least one scenario id or path');
  // As `run` loads them: a scenario file's tools_module is imported before the file is read.
  const scenarios = await loadScenarioSources(options.scenarios);
  const arm: Arm = { name: agentArmName(definition, ref), guards: [], agent: ref };
  checkAgentSweep(
    [arm],
    scenarios.map(({ scenario }) => scenario),
    inProcessModel(),
    { agents: new Map([[arm.name, definition]]) },
  );
  const records: RunRecord[] = [];
  const outDir = options.out === undefined ? undefined : resolve(options.out);
  const summary = await runSweep({
    scenarios,
    arms: [arm],
    seeds: options.seeds,
    baseSeed: options.firstSeed ?? 1,
    sweepSeed: options.sweepSeed ?? 0,
    workers: ref.kind === 'inline' ? 1 : (options.workers ?? 1),
    ...(outDir === undefined ? {} : { outDir, discard: true }),
    onRecord: (record) => records.push(record),
  });
  return { records, summary, ...(outDir === undefined ? {} : { outDir }) };
}
