import { describe, type Distribution } from './descriptive.js';
import { wilson, type Proportion } from './wilson.js';

/** The fields of a run the summary reads (a RunRecord satisfies it). */
export interface SummarisableRun {
  readonly scenario: string;
  readonly arm: string;
  readonly outcome: string;
  readonly verdict: string;
  readonly tool_calls: number;
  readonly tool_executions: number;
  readonly model_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly virtual_ms: number;
  readonly duplicate_side_effects: number;
}

/** Statistics of one (scenario, arm) cell of a sweep. */
export interface CellSummary {
  readonly scenario: string;
  readonly arm: string;
  readonly runs: number;
  readonly success: Proportion;
  readonly verdicts: Readonly<Record<string, number>>;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly tool_calls: Distribution;
  readonly tool_executions: Distribution;
  readonly model_calls: Distribution;
  readonly input_tokens: Distribution;
  readonly output_tokens: Distribution;
  readonly virtual_ms: Distribution;
  readonly duplicate_side_effects: number;
}

const VERDICTS = ['success', 'escalated', 'failure', 'harmful'];

function countBy(runs: readonly SummarisableRun[], field: 'outcome' | 'verdict', known: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(known.map((key) => [key, 0]));
  for (const run of runs) counts[run[field]] = (counts[run[field]] ?? 0) + 1;
  return counts;
}

export function summariseCell(scenario: string, arm: string, runs: readonly SummarisableRun[], outcomeKinds: readonly string[]): CellSummary {
  const metric = (pick: (run: SummarisableRun) => number) => describe(runs.map(pick));
  const successes = runs.filter((run) => run.verdict === 'success').length;
  return {
    scenario,
    arm,
    runs: runs.length,
    success: wilson(successes, runs.length),
    verdicts: countBy(runs, 'verdict', VERDICTS),
    outcomes: countBy(runs, 'outcome', outcomeKinds),
    tool_calls: metric((run) => run.tool_calls),
    tool_executions: metric((run) => run.tool_executions),
    model_calls: metric((run) => run.model_calls),
    input_tokens: metric((run) => run.input_tokens),
    output_tokens: metric((run) => run.output_tokens),
    virtual_ms: metric((run) => run.virtual_ms),
    duplicate_side_effects: runs.reduce((sum, run) => sum + run.duplicate_side_effects, 0),
  };
}
