import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserInputError } from '../user-input-error.js';
import type { StoredRun } from './run-record-schema.js';
import type { StoredSummary } from './summary-schema.js';

/** A whole run record, as a sweep writes it; `fields` override any of it. */
export function fixtureRun(fields: Partial<Record<keyof StoredRun, unknown>> = {}): StoredRun {
  return {
    sweep_seed: 0,
    scenario: 's1',
    arm: 'none',
    seed: 1,
    model: 'simulated',
    outcome: 'completed',
    verdict: 'success',
    verdict_reason: 'the outbox holds exactly the expected writes',
    tool_calls: 10,
    tool_executions: 10,
    tool_retries: 0,
    model_calls: 11,
    input_tokens: 1000,
    output_tokens: 100,
    virtual_ms: 5000,
    duplicate_side_effects: 0,
    faults: { timeout: 1, connection_refused: 0, rate_limit: 0, server_error: 0, malformed_json: 0 },
    events: { 'agent.tool.retry': 0, 'agent_run.started': 1 },
    escalation: null,
    model_faults: { rate_limit: 0 },
    refetch_calls: 0,
    journal: null,
    cost_usd: 0.01,
    ...fields,
  } as StoredRun;
}

const proportion = { successes: 1, trials: 2, rate: 0.5, low: 0.09, high: 0.91 };
const distribution = { median: 1, p95: 2, max: 2, mean: 1.5 };

/** A summary.json whose cells count `runs` per (scenario, arm), seeds 1..`seeds`. */
export function fixtureSummary(
  runs: ReadonlyArray<{ readonly scenario: string; readonly arm: string; readonly runs: number }>,
  seeds = 10,
  overrides: Partial<StoredSummary> = {},
): StoredSummary {
  const scenarios = [...new Set(runs.map((cell) => cell.scenario))];
  const arms = [...new Set(runs.map((cell) => cell.arm))];
  return {
    spiralbench: '0.1.0',
    sweep_seed: 0,
    seeds: { base: 1, count: seeds },
    model: 'simulated',
    shard: null,
    scenarios: scenarios.map((id) => ({ id, hash: 'h', tool_budget: 15, impossible: false })),
    arms: arms.map((name) => ({ name, guards: [] })),
    cells: runs.map(({ scenario, arm, runs: count }) => ({
      scenario,
      arm,
      runs: count,
      success: proportion,
      right_outcome: proportion,
      verdicts: { success: count },
      outcomes: { completed: count },
      tool_calls: distribution,
      tool_executions: distribution,
      model_calls: distribution,
      input_tokens: distribution,
      output_tokens: distribution,
      virtual_ms: distribution,
      duplicate_side_effects: 0,
    })),
    pass_hat_k: arms.map((arm) => ({ arm, k: { '1': 0.5 } })),
    ...overrides,
  };
}

/** A results folder holding exactly `files` (name → text), in a fresh temporary folder. */
export function fixtureFolder(files: Readonly<Record<string, string>>, root?: string): string {
  const dir = root === undefined ? mkdtempSync(join(tmpdir(), 'spiralbench-fixture-')) : root;
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A finished sweep folder of `runs`, with the summary that counts them. */
export function finishedFolder(runs: readonly StoredRun[], summary?: StoredSummary): string {
  const cells = new Map<string, { scenario: string; arm: string; runs: number }>();
  for (const run of runs) {
    const key = `${run.scenario}\u0000${run.arm}`;
    const cell = cells.get(key) ?? { scenario: run.scenario, arm: run.arm, runs: 0 };
    cell.runs += 1;
    cells.set(key, cell);
  }
  return fixtureFolder({
    'runs.jsonl': runs.map((run) => `${JSON.stringify(run)}\n`).join(''),
    'summary.json': JSON.stringify(summary ?? fixtureSummary([...cells.values()])),
  });
}

/** Runs that differ in every indexed field: two scenarios, two arms, tasks, members, faults of three kinds. */
export function variedRuns(seeds = 40): StoredRun[] {
  const runs: StoredRun[] = [];
  for (const scenario of ['s1', 's2'])
    for (const arm of ['none', 'article'])
      for (let seed = 1; seed <= seeds; seed++)
        runs.push(
          fixtureRun({
            scenario,
            arm,
            seed,
            verdict: ['success', 'failure', 'harmful', 'escalated'][seed % 4],
            outcome: seed % 3 === 0 ? 'max_iterations' : 'completed',
            tool_calls: (seed * 7) % 13,
            model_calls: (seed * 5) % 11,
            input_tokens: 1000 + ((seed * 37) % 101),
            ...(seed % 5 === 0 ? { cost_usd: undefined } : { cost_usd: ((seed * 3) % 7) / 100 }),
            task: `t${seed % 6}`,
            member: seed % 3,
            faults: { timeout: seed % 2, rate_limit: seed % 3 === 1 ? 2 : 0 },
            model_faults: { overloaded: seed % 4 === 0 ? 1 : 0 },
            ...(seed % 7 === 0
              ? {
                  data_faults: {
                    injected_instructions: 0,
                    stale_read: 1,
                    wrong_entity: 0,
                    empty_result: 0,
                    truncated_page: 0,
                    schema_drift: 0,
                  },
                }
              : {}),
            events: { 'agent.tool.retry': seed % 2, 'agent_run.started': 1 },
          }),
        );
  return runs;
}

/** A finished folder of `variedRuns`, its summary counting them. */
export function variedFolder(seeds = 40): string {
  const cells = ['s1', 's2'].flatMap((scenario) => ['none', 'article'].map((arm) => ({ scenario, arm, runs: seeds })));
  return finishedFolder(variedRuns(seeds), fixtureSummary(cells, seeds));
}

/** What `action` refused as a UserInputError (its message), or 'no error'. */
export async function problem(action: () => unknown): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
  return 'no error';
}
