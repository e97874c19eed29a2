import type { Distribution } from './descriptive.js';
import type { Proportion } from './wilson.js';

/** Statistics of one (scenario, arm) cell of a sweep, as summary.json holds them. */
export interface CellSummary {
  readonly scenario: string;
  readonly arm: string;
  readonly runs: number;
  readonly success: Proportion;
  /** Success, or an escalation where the scenario is impossible: the outcome a user wants. */
  readonly right_outcome: Proportion;
  readonly verdicts: Readonly<Record<string, number>>;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly tool_calls: Distribution;
  readonly tool_executions: Distribution;
  readonly model_calls: Distribution;
  readonly input_tokens: Distribution;
  readonly output_tokens: Distribution;
  readonly virtual_ms: Distribution;
  readonly duplicate_side_effects: number;
  /**
   * What the cell's runs cost, summed from their records (each call at its model's price,
   * prompt-cache reads and writes priced as such); absent in summaries written before it.
   */
  readonly cost_usd?: number | undefined;
  /**
   * A dataset scenario's cells only: each task's runs and right outcomes, in the dataset's
   * row order, tasks no seed reached left out (pass^k is read per task).
   */
  readonly tasks?: ReadonlyArray<TaskTally> | undefined;
}

/** One dataset task's runs in a cell, and how many had the right outcome. */
export interface TaskTally {
  readonly task: string;
  readonly runs: number;
  readonly right: number;
}
