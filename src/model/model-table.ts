/** The cheap model guards fall back to (LLM-call recovery) and summarise with (compaction). */
export const CHEAP_MODEL_ID = 'claude-haiku-5-5';

/** What the harness knows of a model: how much it reads at once and what it costs. */
export interface ModelSpec {
  /** The model id prefix the entry applies to. */
  readonly prefix: string;
  /** Input tokens one request may hold (system, tools and messages). */
  readonly contextWindow: number;
  /** List price in US dollars per million input tokens. */
  readonly inputPerMillion: number;
  /** List price in US dollars per million output tokens. */
  readonly outputPerMillion: number;
}

/**
 * Models by id prefix, the first matching prefix wins (exact ids before families). A table,
 * not a live price list: every figure made from it is labelled an estimate.
 */
export const MODEL_TABLE: readonly ModelSpec[] = [
  { prefix: 'claude-sonnet-5-5', contextWindow: 200_000, inputPerMillion: 3, outputPerMillion: 15 },
  { prefix: CHEAP_MODEL_ID, contextWindow: 200_000, inputPerMillion: 1, outputPerMillion: 5 },
  { prefix: 'claude-opus-', contextWindow: 200_000, inputPerMillion: 15, outputPerMillion: 75 },
  { prefix: 'claude-sonnet-', contextWindow: 200_000, inputPerMillion: 3, outputPerMillion: 15 },
  { prefix: 'claude-haiku-', contextWindow: 200_000, inputPerMillion: 1, outputPerMillion: 5 },
];

/** The table's entry for a model id, or undefined for a model it does not know. */
export function modelSpec(model: string): ModelSpec | undefined {
  return MODEL_TABLE.find((entry) => model.startsWith(entry.prefix));
}

/** The context window of a model id; an unknown model gets the most common window, 200k. */
export function contextWindowOf(model: string): number {
  return modelSpec(model)?.contextWindow ?? 200_000;
}

/**
 * The context window a request is held to: a scenario's own (`context_window`, to make
 * pressure on purpose) when it sets one, else the model's.
 */
export function contextWindowWith(override: number | null | undefined): (model: string) => number {
  return override === null || override === undefined ? contextWindowOf : () => override;
}

/** Dollars a call costs at the model's list prices; 0 for a model the table does not know. */
export function callCost(model: string, inputTokens: number, outputTokens: number): number {
  const spec = modelSpec(model);
  return spec === undefined
    ? 0
    : (inputTokens * spec.inputPerMillion + outputTokens * spec.outputPerMillion) / 1_000_000;
}
