import { z } from 'zod';
import type { CellSummary } from '../stats/cell-summary.js';
import { ROBUSTNESS_LABELS } from '../stats/robustness.js';
import { amount, count, counts, finite, flag, name, oneOf, text, whole } from './field-schemas.js';

/** A safeguard's settings as results hold them: its name, then settings that depend on the guard. */
export interface StoredGuard {
  readonly guard: string;
  readonly [setting: string]: unknown;
}

/** An arm as results hold it: its guards in order, or the peer framework it runs through. */
export interface StoredArm {
  readonly name: string;
  readonly guards: readonly StoredGuard[];
  readonly peer?: unknown;
}

/** How a live sweep ran (real sockets, scaled real time). */
export interface StoredLiveLabel {
  readonly mode: 'live';
  readonly note: string;
  readonly timeout_ms: number;
  readonly time_scale: Readonly<Record<string, number>>;
  readonly model_url: string | null;
}

/** summary.json: the sweep's definition and per-cell statistics, written once every run is in runs.jsonl. */
export interface StoredSummary {
  readonly spiralbench: string;
  readonly sweep_seed: number;
  readonly seeds: { readonly base: number; readonly count: number };
  readonly model: string;
  readonly shard: { readonly index: number; readonly count: number } | null;
  readonly scenarios: ReadonlyArray<{
    readonly id: string;
    readonly hash: string;
    readonly tool_budget: number;
    readonly impossible: boolean;
    /** A tools module's and each file it imports, by shown path with its sha256; only when it imports any. */
    readonly files?: Readonly<Record<string, string>> | undefined;
    /** A dataset scenario's task ids, in row order: run seed s played task (s − 1) mod their count. */
    readonly tasks?: readonly string[] | undefined;
  }>;
  readonly arms: readonly StoredArm[];
  readonly cells: readonly CellSummary[];
  /**
   * pass^k per arm (τ-bench): how reliably an arm gets the right outcome k times in a row.
   * Each scenario is one task; a dataset scenario's rows are a task each.
   */
  readonly pass_hat_k: ReadonlyArray<{ readonly arm: string; readonly k: Readonly<Record<string, number>> }>;
  /** Live sweeps only: real sockets, real (scaled) time, not byte-reproducible. */
  readonly live?: StoredLiveLabel | undefined;
  /** Sweeps run with a persona ensemble only: which one (`default` or the file as given), its size and the sha256 of its bytes. */
  readonly ensemble?: StoredEnsemble | undefined;
  /** Whole sweeps of two or more arms, written by `run`: the labels and the recommendation its output states. */
  readonly conclusions?: StoredConclusions | undefined;
  /** `run --sensitivity` only: how the conclusions hold with the prior-only persona parameters at their edges. */
  readonly sensitivity?: StoredSensitivity | undefined;
}

/** The persona ensemble a sweep ran across: run seed s met member (s − seeds.base) mod members. */
export interface StoredEnsemble {
  readonly name: string;
  readonly members: number;
  readonly hash: string;
}

const proportion = z.object({ successes: count, trials: count, rate: finite, low: finite, high: finite });
const distribution = z.object({ median: finite, p95: finite, max: finite, mean: finite });

const cellSchema = z.object({
  scenario: name,
  arm: name,
  runs: count,
  success: proportion,
  right_outcome: proportion,
  verdicts: counts,
  outcomes: counts,
  tool_calls: distribution,
  tool_executions: distribution,
  model_calls: distribution,
  input_tokens: distribution,
  output_tokens: distribution,
  virtual_ms: distribution,
  duplicate_side_effects: count,
  cost_usd: finite.optional(),
  tasks: z.array(z.object({ task: text, runs: count, right: count })).optional(),
});

/** A difference between two arms and how it holds across the ensemble's members (see stats/robustness.ts). */
const robustnessSchema = z.object({
  label: oneOf(ROBUSTNESS_LABELS),
  /** Leaving out one member changes the label. */
  borderline: flag,
  /** The members (ensemble indices) whose leaving out changes it. */
  flipped_by: z.array(count),
  members: count,
  pooled: finite,
  /** The pooled effect's 95% interval. */
  low: finite,
  high: finite,
  significant: flag,
  /** 95% prediction interval of a new member's effect; null below 3 members. */
  prediction_low: finite.nullable(),
  prediction_high: finite.nullable(),
  tau: finite,
  heterogeneity_p: finite,
});
export type StoredRobustness = z.infer<typeof robustnessSchema>;

/**
 * What `run` concludes from a whole sweep's runs: every arm's success gain over the
 * baseline per scenario and pooled, and the recommendation with the scenario mix behind it
 * (report/scenario-mix.ts). Success is the right outcome (an escalation where the
 * scenario is impossible); differences are rates, 0.1 = 10 points.
 */
export const conclusionsSchema = z.object({
  baseline: name,
  /** Members the pooled labels saw (1: no ensemble). */
  members: count,
  rule: z.object({ robust_min_members: count, heterogeneity_alpha: finite }),
  /** Per scenario and arm (not the baseline): its success gain over the baseline. */
  cells: z.array(z.object({ scenario: name, arm: name, success: robustnessSchema })),
  /** Per arm in leaderboard order: its success rate over every scenario, and its gain pooled over them (null for the baseline). */
  arms: z.array(z.object({ arm: name, rank: count, success_rate: finite, success: robustnessSchema.nullable() })),
  recommendation: z.object({
    /** The leaderboard's first arm. */
    arm: name,
    best: z.array(z.object({ arm: name, best: count, tied_best: count })),
    all_tied: z.array(name),
    showcases: z.array(z.object({ scenario: name, arm: name, guards: z.array(name), events: count })),
    /** The answer over the scenarios that are not showcases; null when there is none or nothing else is left. */
    without_showcases: z
      .object({ scenarios: z.array(name), arm: name, success_rate: finite, success: robustnessSchema.nullable() })
      .nullable(),
    /** Scenarios whose leaving out puts another arm on top, with that arm. */
    leave_one_out: z.array(z.object({ scenario: name, arm: name })),
  }),
});
export type StoredConclusions = z.infer<typeof conclusionsSchema>;

/** A difference's conclusion: its label, and its sign (+/-; 0 when the pooled interval includes 0). */
const cellConclusionSchema = z.object({
  label: oneOf(ROBUSTNESS_LABELS),
  sign: oneOf(['+', '-', '0']),
  pooled: finite,
});

/** One conclusion in the main sweep and at each edge, and where it changed. */
const atEdgesShape = {
  main: cellConclusionSchema,
  /** null: no paired runs at that edge. */
  low: cellConclusionSchema.nullable(),
  high: cellConclusionSchema.nullable(),
  /** The edges where label or sign differs from `main`. */
  changes_at: z.array(oneOf(['low', 'high'])),
  /** Every moved parameter when it changes at an edge ("depends on untested assumptions"), else empty. */
  depends_on: z.array(name),
};

/**
 * What `run --sensitivity` found: the same cells re-run with every member's prior-only
 * parameters (persona-priors.ts, basis `prior`) at the low, then the high edge of their
 * ranges, and which success labels (per cell) and harmful-rate labels (per arm) changed
 * label or sign there. The edge runs themselves are not kept: they are not the sweep's runs.
 */
export const sensitivitySchema = z.object({
  /** The parameters moved, all together, with their values at each edge. */
  parameters: z.array(z.object({ parameter: name, low: finite, high: finite })),
  /** Success, per scenario and arm (not the baseline), as in `conclusions.cells`. */
  cells: z.array(z.object({ scenario: name, arm: name, ...atEdgesShape })),
  /**
   * Harmful rate, per arm (not the baseline) against the baseline, pooled over the
   * scenarios as the answer table states it. Absent from summaries written before it was checked.
   */
  harmful: z
    .object({
      baseline: name,
      arms: z.array(z.object({ arm: name, ...atEdgesShape })),
    })
    .optional(),
});
export type StoredSensitivity = z.infer<typeof sensitivitySchema>;

export const liveLabelSchema: z.ZodType<StoredLiveLabel> = z.object({
  mode: z.literal('live'),
  note: text,
  timeout_ms: amount,
  time_scale: z.record(z.string(), finite),
  model_url: text.nullable(),
});

export const summarySchema: z.ZodType<StoredSummary> = z.object({
  spiralbench: text,
  sweep_seed: whole,
  seeds: z.object({ base: count, count }),
  model: text,
  shard: z.object({ index: count.min(1), count: count.min(1) }).nullable(),
  scenarios: z
    .array(
      z.object({
        id: name,
        hash: text,
        tool_budget: amount,
        impossible: flag,
        files: z.record(z.string(), text).optional(),
        tasks: z.array(text).min(1).optional(),
      }),
    )
    .min(1),
  // Guard settings are kept whole: the report shows every one of them.
  arms: z.array(z.looseObject({ name, guards: z.array(z.looseObject({ guard: name })) })).min(1),
  cells: z.array(cellSchema).min(1),
  pass_hat_k: z.array(z.object({ arm: text, k: z.record(z.string(), finite) })),
  live: liveLabelSchema.optional(),
  ensemble: z.object({ name: text, members: count.min(1), hash: text }).optional(),
  conclusions: conclusionsSchema.optional(),
  sensitivity: sensitivitySchema.optional(),
});
