import type { Guard } from '../loop/guard.js';
import { errorClassification } from '../loop/guards/error-classification.js';
import { repeatFingerprint } from '../loop/guards/repeat-fingerprint.js';
import { stuckTool } from '../loop/guards/stuck-tool.js';
import { toolBudget } from '../loop/guards/tool-budget.js';
import type { Scenario } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';

/** One safeguard's settings, as written into results. */
export type GuardSetting =
  | { readonly guard: 'stuck' }
  | { readonly guard: 'budget'; readonly maxToolCalls: number | 'task-class' }
  | { readonly guard: 'repeat'; readonly window: number }
  | { readonly guard: 'classify'; readonly maxRetries: number; readonly backoffMs: readonly number[] };

/** A benchmark arm: a name and the safeguards it turns on. */
export interface Arm {
  readonly name: string;
  readonly guards: readonly GuardSetting[];
}

const STUCK: GuardSetting = { guard: 'stuck' };
const BUDGET: GuardSetting = { guard: 'budget', maxToolCalls: 'task-class' };
const REPEAT: GuardSetting = { guard: 'repeat', window: 2 };
const CLASSIFY: GuardSetting = { guard: 'classify', maxRetries: 3, backoffMs: [1000, 2000, 4000] };

export const ARM_PRESETS: ReadonlyMap<string, Arm> = new Map(
  [
    { name: 'none', guards: [] },
    { name: 'budget', guards: [BUDGET] },
    { name: 'repeat', guards: [REPEAT] },
    { name: 'classify', guards: [CLASSIFY] },
    { name: 'stuck', guards: [STUCK] },
    // The four core safeguards. Order is the order guards are consulted: an escalation
    // is honoured before a repeat check could block it.
    { name: 'article', guards: [STUCK, BUDGET, REPEAT, CLASSIFY] },
  ].map((arm) => [arm.name, arm]),
);

export function resolveArms(names: readonly string[], source = '--arms'): Arm[] {
  const unknown = names.filter((name) => !ARM_PRESETS.has(name));
  if (unknown.length > 0) {
    throw UserInputError.single(source, '', `arm names from ${[...ARM_PRESETS.keys()].join(', ')}; unknown: ${unknown.join(', ')}`);
  }
  if (names.length === 0) throw UserInputError.single(source, '', 'at least one arm');
  return names.map((name) => ARM_PRESETS.get(name) as Arm);
}

/** Fresh guard instances for one run (guards keep per-run state). */
export function buildGuards(arm: Arm, scenario: Scenario): Guard[] {
  return arm.guards.map((setting) => {
    switch (setting.guard) {
      case 'stuck':
        return stuckTool();
      case 'budget':
        return toolBudget({ maxToolCalls: setting.maxToolCalls === 'task-class' ? scenario.toolBudget : setting.maxToolCalls });
      case 'repeat':
        return repeatFingerprint({ window: setting.window });
      case 'classify':
        return errorClassification({ maxRetries: setting.maxRetries, backoffMs: setting.backoffMs });
    }
  });
}
