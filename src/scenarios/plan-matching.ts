import { isReference } from './references.js';
import type { PlanStep } from './schema.js';
import { canonicalJson } from './canonical-json.js';

/*
 * Which plan step a tool call serves, as the simulated model reads its own transcript.
 * With one step per tool, any call of that tool is an attempt at it (a retry, a variant);
 * where steps share a tool, the arguments say which step a call serves. The loader uses
 * the same rule to refuse detours that would be read as a later step.
 */

type LiteralForm = ReadonlyArray<readonly [string, string]>;

const literalForms = new WeakMap<PlanStep, readonly LiteralForm[]>();
const sharing = new WeakMap<readonly PlanStep[], readonly boolean[]>();

function hasReference(value: unknown): boolean {
  return isReference(value) || (typeof value === 'object' && value !== null && Object.values(value).some(hasReference));
}

/** The literal (reference-free) arguments of a step and of each variant, as canonical JSON. */
function literalsOf(step: PlanStep): readonly LiteralForm[] {
  let forms = literalForms.get(step);
  if (forms === undefined) {
    forms = [step.args, ...step.variants].map((args) =>
      Object.entries(args)
        .filter(([, value]) => !hasReference(value))
        .map(([name, value]) => [name, canonicalJson(value)] as const),
    );
    literalForms.set(step, forms);
  }
  return forms;
}

/**
 * Whether a call's arguments agree with the step's own (or a variant's) on every literal
 * value, the way a reader tells `read_source(src_02)` from `read_source(src_03)`.
 */
export function argumentsMatch(step: PlanStep, input: Record<string, unknown>): boolean {
  return literalsOf(step).some((form) => form.every(([name, value]) => canonicalJson(input[name]) === value));
}

/** For each step, whether another step calls the same tool. */
export function sharedTools(steps: readonly PlanStep[]): readonly boolean[] {
  let shared = sharing.get(steps);
  if (shared === undefined) {
    shared = steps.map((step) => steps.filter((other) => other.tool === step.tool).length > 1);
    sharing.set(steps, shared);
  }
  return shared;
}

/** Whether a call is one of the step's alternatives: its tool, with every literal argument as written. */
function servesAsAlternative(step: PlanStep, tool: string, input: Record<string, unknown>): boolean {
  return step.alternatives.some(
    (alternative) =>
      alternative.tool === tool &&
      Object.entries(alternative.args).every(
        ([name, value]) => hasReference(value) || canonicalJson(input[name]) === canonicalJson(value),
      ),
  );
}

/** The first step from `from` on that a call of `tool` with `input` serves, or -1. */
export function stepServed(
  steps: readonly PlanStep[],
  from: number,
  tool: string,
  input: Record<string, unknown>,
): number {
  const shared = sharedTools(steps);
  for (let s = from; s < steps.length; s++) {
    const step = steps[s];
    if (step === undefined) continue;
    if (step.tool === tool && (shared[s] !== true || argumentsMatch(step, input))) return s;
    if (step.alternatives.length > 0 && servesAsAlternative(step, tool, input)) return s;
  }
  return -1;
}
