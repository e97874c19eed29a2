import type { Guard } from '../loop/guard.js';
import { argumentRepair } from '../loop/guards/argument-repair.js';
import { concurrency } from '../loop/guards/concurrency.js';
import { contextCompaction } from '../loop/guards/context-compaction.js';
import { runJournal } from '../loop/guards/run-journal.js';
import { RunJournal } from '../loop/journal/run-journal.js';
import { errorClassification } from '../loop/guards/error-classification.js';
import { iterationBudget } from '../loop/guards/iteration-budget.js';
import { llmRecovery } from '../loop/guards/llm-recovery.js';
import { loopDetection } from '../loop/guards/loop-detection.js';
import { orderingFixup } from '../loop/guards/message-ordering.js';
import { outputLimitRecovery } from '../loop/guards/output-limit-recovery.js';
import { repeatFingerprint } from '../loop/guards/repeat-fingerprint.js';
import { stuckTool } from '../loop/guards/stuck-tool.js';
import { timeLimits } from '../loop/guards/time-limits.js';
import { type BudgetCount, toolBudget } from '../loop/guards/tool-budget.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { contextWindowOf } from '../model/model-table.js';
import type { StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import type { BudgetClass } from '../scenarios/schema.js';
import { UserInputError } from '../user-input-error.js';
import { installCommand, missingPackages, peerByArm, PEERS } from '../peers/peer-registry.js';
import type { PeerSetting } from '../peers/peer-setting.js';
import type { AgentRef } from '../agents/agent-arm.js';

/** One safeguard's settings, as written into results. */
export type GuardSetting =
  | { readonly guard: 'stuck' }
  | { readonly guard: 'budget'; readonly maxToolCalls: number | 'task-class'; readonly counts: BudgetCount }
  | { readonly guard: 'repeat'; readonly window: number }
  | { readonly guard: 'classify'; readonly maxRetries: number; readonly backoffMs: readonly number[] }
  | {
      readonly guard: 'recover';
      readonly maxRetries: number;
      readonly backoffMs: readonly number[];
      readonly jitter: number;
      readonly retryAfterCapMs: number;
      readonly fallbackModel: string | null;
    }
  | { readonly guard: 'output'; readonly raisedMaxTokens: number; readonly maxResumes: number }
  | {
      readonly guard: 'iterations';
      readonly initial: number | 'task-class';
      readonly extension: number;
      readonly cap: number | 'task-class';
    }
  | { readonly guard: 'time'; readonly softMs: number | 'task-class'; readonly hardMs: number | 'task-class' }
  | { readonly guard: 'concurrency' }
  | { readonly guard: 'loops'; readonly window: number; readonly identical: number; readonly pattern: number }
  | { readonly guard: 'fixup' }
  | { readonly guard: 'repair'; readonly repairTruncated: boolean }
  | {
      readonly guard: 'compact';
      readonly threshold: number;
      readonly keepLast: number;
      readonly deepKeepLast: number;
      readonly pin: boolean;
      readonly summaryModel: string;
      readonly summaryMaxTokens: number;
      readonly ladderWindow: number;
      readonly maxRecoveries: number;
      readonly reactive: boolean;
      readonly counter: 'estimate' | 'cl100k';
    }
  | { readonly guard: 'journal'; readonly digestChars: number };

export type GuardName = GuardSetting['guard'];

/** A benchmark arm: a name and the safeguards it turns on, in the order they are consulted. */
export interface Arm {
  readonly name: string;
  readonly guards: readonly GuardSetting[];
  /** Set on `peer:<name>` arms: the run goes through that framework's loop instead of ours (guards stay empty). */
  readonly peer?: PeerSetting;
  /** Set on a user's agent arm (`--agent`, or `agent:` in an arms file): the run goes through that agent (guards stay empty). */
  readonly agent?: AgentRef;
}

/** LLM-call recovery's settings in `all` and when a guard is named without settings. */
export const RECOVER_DEFAULTS = {
  guard: 'recover',
  maxRetries: 3,
  backoffMs: [1000, 2000, 4000],
  jitter: 0.25,
  retryAfterCapMs: 60_000,
  fallbackModel: 'claude-haiku-5-5',
} as const satisfies GuardSetting;

/** Context management's settings in `all` and when the guard is named without settings. */
export const COMPACT_DEFAULTS = {
  guard: 'compact',
  threshold: 0.7,
  keepLast: 10,
  deepKeepLast: 4,
  pin: true,
  summaryModel: 'claude-haiku-5-5',
  summaryMaxTokens: 512,
  ladderWindow: 20,
  maxRecoveries: 4,
  reactive: true,
  counter: 'estimate',
} as const satisfies GuardSetting;

/** Soft and hard time limits per task class, in virtual ms: well past a typical run of the class. */
export const TIME_LIMITS_BY_CLASS: Readonly<Record<BudgetClass, { readonly softMs: number; readonly hardMs: number }>> =
  {
    lookup: { softMs: 60_000, hardMs: 120_000 },
    standard: { softMs: 300_000, hardMs: 600_000 },
    research: { softMs: 900_000, hardMs: 1_800_000 },
  };

/**
 * The dynamic iteration budget per task class: the 10 → 25 for lookups and
 * standard tasks; a research task (tool budget 40) starts at 30 and may reach 60, so the
 * tool budget's final turn comes first.
 */
export const ITERATIONS_BY_CLASS: Readonly<Record<BudgetClass, { readonly initial: number; readonly cap: number }>> = {
  lookup: { initial: 10, cap: 25 },
  standard: { initial: 10, cap: 25 },
  research: { initial: 30, cap: 60 },
};

/**
 * Every guard with its default settings, in consultation order: an escalation is
 * honoured before a repeat check could block it, and the budget is checked before
 * anything else reaches the model.
 */
export const DEFAULT_GUARDS: readonly GuardSetting[] = [
  // First: model-call wrappers nest in guard order, so recovery is innermost, nearest the
  // model, like an HTTP client's retry layer; a later wrapper (reactive compaction on a
  // 413, say) sees a call only once transient faults have been ridden out. It takes no
  // part in the tool-side decisions the other guards are ordered for.
  RECOVER_DEFAULTS,
  // Outside recovery, so a 413 reaches it only once transient faults are ridden out and its
  // summary calls are retried too; inside output-limit recovery, whose raise must not
  // lengthen a summary.
  COMPACT_DEFAULTS,
  // Outside recovery: it sees a reply only once transient faults are ridden out, and its
  // raised resend gets the same recovery.
  { guard: 'output', raisedMaxTokens: 64_000, maxResumes: 3 },
  // Repairs the transcript before each call: a resumed history may be out of order.
  { guard: 'fixup' },
  { guard: 'stuck' },
  // The article's "count every tool call": a call refused by another guard still cost the
  // model a turn, so it counts (`counts: 'executed'` counts only what reached the tools).
  { guard: 'budget', maxToolCalls: 'task-class', counts: 'requested' },
  // The article's rule: the same tool with the same arguments twice in a row.
  { guard: 'repeat', window: 1 },
  { guard: 'classify', maxRetries: 3, backoffMs: [1000, 2000, 4000] },
  // Before the iteration budget's warning: one intervention a batch, and thrash is the
  // more urgent news.
  { guard: 'loops', window: 6, identical: 3, pattern: 4 },
  // Answers its own tool before the others see the call; stops at its limit after the
  // budget's final turn has had its chance.
  { guard: 'iterations', initial: 'task-class', extension: 10, cap: 'task-class' },
  { guard: 'time', softMs: 'task-class', hardMs: 'task-class' },
  { guard: 'concurrency' },
  // Only reads arguments that arrive as text (the OpenAI-compatible edge); its place in
  // the order does not matter, since it is the only guard with that hook.
  { guard: 'repair', repairTruncated: false },
  // Answers only its own tools; compaction shows its journal after every summary.
  { guard: 'journal', digestChars: 500 },
];

/** The four core safeguards of the article. */
const ARTICLE: readonly GuardName[] = ['stuck', 'budget', 'repeat', 'classify'];

function armOf(name: string, guards: readonly GuardName[]): Arm {
  return { name, guards: DEFAULT_GUARDS.filter((setting) => guards.includes(setting.guard)) };
}

const ALL_GUARDS = DEFAULT_GUARDS.map((setting) => setting.guard);

export const ARM_PRESETS: ReadonlyMap<string, Arm> = new Map(
  [
    armOf('none', []),
    ...ALL_GUARDS.map((guard) => armOf(guard, [guard])),
    armOf('article', ARTICLE),
    // Everything built so far; grows as guards land (article stays the four core ones).
    armOf('all', ALL_GUARDS),
    // Compaction without pinning: what the pinned results buy.
    { name: 'compact-nopin', guards: [{ ...COMPACT_DEFAULTS, pin: false }] },
  ].map((arm) => [arm.name, arm]),
);

/** Preset groups that expand to several arms. */
export const ARM_GROUPS: ReadonlyMap<string, () => Arm[]> = new Map([
  [
    'ablation',
    () => [
      ARM_PRESETS.get('none')!,
      ...ALL_GUARDS.map((guard) => ARM_PRESETS.get(guard)!),
      ...ALL_GUARDS.map((left) =>
        armOf(
          `all-no-${left}`,
          ALL_GUARDS.filter((guard) => guard !== left),
        ),
      ),
      ARM_PRESETS.get('all')!,
    ],
  ],
]);

/** The prefix of every peer framework's arm, today's and those added later. */
const PEER_PREFIX = 'peer:';

/**
 * Why a custom arm (from an arms file) cannot take `name`, or undefined when it can. Each
 * reserved name already means something in --arms, and a custom arm of that name would be
 * shadowed or would shadow it without a word.
 */
export function reservedArmName(name: string): string | undefined {
  if (name.startsWith(PEER_PREFIX)) return `${PEER_PREFIX} starts the arms of peer frameworks`;
  if (ARM_PRESETS.has(name)) return 'a preset arm';
  if (ARM_GROUPS.has(name)) return 'a group of arms';
  for (const [group, expand] of ARM_GROUPS)
    if (expand().some((arm) => arm.name === name)) return `an arm of the ${group} group`;
  return undefined;
}

/**
 * Arms by name: presets, preset groups (`ablation`) and arms from a config file, in the
 * order given, without duplicates.
 */
export function resolveArms(
  names: readonly string[],
  source = '--arms',
  custom: ReadonlyMap<string, Arm> = new Map(),
  installed?: (name: string) => boolean,
): Arm[] {
  if (names.length === 0) throw UserInputError.single(source, '', 'at least one arm');
  const arms: Arm[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const peer = peerByArm(name);
    if (peer !== undefined) {
      if (missingPackages(peer, installed).length > 0) {
        throw UserInputError.single(
          source,
          '',
          `arm '${name}' needs ${missingPackages(peer, installed).join(', ')}, which is not installed; add it with: ${installCommand(peer, installed)}`,
        );
      }
      if (!arms.some((known) => known.name === name)) arms.push(peerArm(name));
      continue;
    }
    const group = ARM_GROUPS.get(name);
    const found = group?.() ?? [custom.get(name) ?? ARM_PRESETS.get(name)].filter((arm) => arm !== undefined);
    if (found.length === 0) unknown.push(name);
    for (const arm of found) if (!arms.some((known) => known.name === arm.name)) arms.push(arm);
  }
  if (unknown.length > 0) {
    const known = [...custom.keys(), ...ARM_PRESETS.keys(), ...ARM_GROUPS.keys(), ...PEERS.map((entry) => entry.arm)];
    throw UserInputError.single(source, '', `arm names from ${known.join(', ')}; unknown: ${unknown.join(', ')}`);
  }
  return arms;
}

/** The arm of a peer framework with its default settings (see src/peers/peer-registry.ts). */
export function peerArm(name: string): Arm & { readonly peer: PeerSetting } {
  const entry = peerByArm(name);
  if (entry === undefined) throw new RangeError(`no peer '${name}'`);
  return { name: entry.arm, guards: [], peer: entry.defaults };
}

/**
 * Fresh guard instances for one run (guards keep per-run state); `key` names the run's
 * streams; `modelId` is the model asked for, whose context window applies unless the
 * scenario sets a smaller one; `journal` is the run's journal, kept by the journal guard
 * and shown by compaction after every summary.
 */
export function buildGuards(
  arm: Arm,
  scenario: Scenario,
  key: StreamKey,
  modelId = DEFAULT_MODEL_ID,
  journal: RunJournal = new RunJournal(),
): Guard[] {
  const journaled = arm.guards.some((setting) => setting.guard === 'journal');
  return arm.guards.map((setting) => {
    switch (setting.guard) {
      case 'stuck':
        return stuckTool();
      case 'budget':
        return toolBudget({
          maxToolCalls: setting.maxToolCalls === 'task-class' ? scenario.toolBudget : setting.maxToolCalls,
          counts: setting.counts,
        });
      case 'repeat':
        return repeatFingerprint({ window: setting.window });
      case 'classify':
        return errorClassification({ maxRetries: setting.maxRetries, backoffMs: setting.backoffMs });
      case 'recover': {
        const { guard: _, ...options } = setting;
        return llmRecovery({ ...options, streamKey: key });
      }
      case 'output':
        return outputLimitRecovery({ raisedMaxTokens: setting.raisedMaxTokens, maxResumes: setting.maxResumes });
      case 'iterations': {
        const byClass = ITERATIONS_BY_CLASS[scenario.budgetClass];
        return iterationBudget({
          initial: setting.initial === 'task-class' ? byClass.initial : setting.initial,
          extension: setting.extension,
          cap: setting.cap === 'task-class' ? byClass.cap : setting.cap,
        });
      }
      case 'time': {
        const byClass = TIME_LIMITS_BY_CLASS[scenario.budgetClass];
        return timeLimits({
          softMs: setting.softMs === 'task-class' ? byClass.softMs : setting.softMs,
          hardMs: setting.hardMs === 'task-class' ? byClass.hardMs : setting.hardMs,
        });
      }
      case 'concurrency':
        return concurrency();
      case 'loops': {
        const { guard: _, ...options } = setting;
        return loopDetection(options);
      }
      case 'fixup':
        return orderingFixup();
      case 'repair':
        return argumentRepair({ repairTruncated: setting.repairTruncated });
      case 'compact': {
        const { guard: _, ...options } = setting;
        const appendix = journaled ? () => (journal.isEmpty ? '' : journal.render()) : () => '';
        return contextCompaction({
          ...options,
          contextWindow: scenario.contextWindow ?? contextWindowOf(modelId),
          appendix,
        });
      }
      case 'journal':
        return runJournal({ journal, digestChars: setting.digestChars });
    }
  });
}
