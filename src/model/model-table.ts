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
  /**
   * The shortest prompt prefix the API caches: a breakpoint on a shorter prefix writes
   * nothing (Anthropic's prompt-caching docs, by model; docs/cost.md).
   */
  readonly minCacheTokens: number;
}

/**
 * Prompt-cache prices as multiples of the input price (Anthropic's list): a write with the
 * default 5-minute lifetime, a write kept an hour, and a read.
 */
export const CACHE_PRICE = { write5m: 1.25, write1h: 2, read: 0.1 } as const;

/** A call answered through the Message Batches API costs this share of its price (Anthropic's list: half). */
export const BATCH_PRICE = 0.5;

/**
 * Models by id prefix, the first matching prefix wins (exact ids before families). A table,
 * not a live price list: every figure made from it is labelled an estimate.
 */
export const MODEL_TABLE: readonly ModelSpec[] = [
  // The simulated model's stand-ins take the newest published minimums of their families.
  {
    prefix: 'claude-sonnet-5-5',
    contextWindow: 200_000,
    inputPerMillion: 3,
    outputPerMillion: 15,
    minCacheTokens: 2048,
  },
  { prefix: CHEAP_MODEL_ID, contextWindow: 200_000, inputPerMillion: 1, outputPerMillion: 5, minCacheTokens: 4096 },
  // Exact ids before their families where the cache's minimum differs (prices as the family's).
  {
    prefix: 'claude-opus-4-1',
    contextWindow: 200_000,
    inputPerMillion: 15,
    outputPerMillion: 75,
    minCacheTokens: 1024,
  },
  {
    prefix: 'claude-opus-4-0',
    contextWindow: 200_000,
    inputPerMillion: 15,
    outputPerMillion: 75,
    minCacheTokens: 1024,
  },
  {
    prefix: 'claude-opus-4-2025',
    contextWindow: 200_000,
    inputPerMillion: 15,
    outputPerMillion: 75,
    minCacheTokens: 1024,
  },
  {
    prefix: 'claude-sonnet-4-6',
    contextWindow: 200_000,
    inputPerMillion: 3,
    outputPerMillion: 15,
    minCacheTokens: 2048,
  },
  { prefix: 'claude-opus-', contextWindow: 200_000, inputPerMillion: 15, outputPerMillion: 75, minCacheTokens: 4096 },
  { prefix: 'claude-sonnet-', contextWindow: 200_000, inputPerMillion: 3, outputPerMillion: 15, minCacheTokens: 1024 },
  { prefix: 'claude-haiku-', contextWindow: 200_000, inputPerMillion: 1, outputPerMillion: 5, minCacheTokens: 4096 },
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

/** The shortest prefix a model's prompt cache keeps; an unknown model gets the common 1,024. */
export function minCacheTokensOf(model: string): number {
  return modelSpec(model)?.minCacheTokens ?? 1024;
}

/** The input tokens of one call that the prompt cache read or wrote (the rest were read afresh). */
export interface CacheTokens {
  readonly read: number;
  /** Written with the 5-minute lifetime. */
  readonly written5m: number;
  /** Written with the 1-hour lifetime. */
  readonly written1h: number;
}

export const NO_CACHE: CacheTokens = Object.freeze({ read: 0, written5m: 0, written1h: 0 });

/**
 * Dollars a call costs at the model's list prices; 0 for a model the table does not know.
 * `inputTokens` are those read afresh; the cache's reads and writes are priced apart.
 */
export function callCost(
  model: string,
  inputTokens: number,
  outputTokens: number,
  cache: CacheTokens = NO_CACHE,
): number {
  const spec = modelSpec(model);
  if (spec === undefined) return 0;
  const input =
    inputTokens +
    cache.read * CACHE_PRICE.read +
    cache.written5m * CACHE_PRICE.write5m +
    cache.written1h * CACHE_PRICE.write1h;
  return (input * spec.inputPerMillion + outputTokens * spec.outputPerMillion) / 1_000_000;
}
