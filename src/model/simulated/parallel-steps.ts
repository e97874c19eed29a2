import { parseReference, referencesIn } from '../../scenarios/references.js';
import type { PlanStep } from '../../scenarios/schema.js';

/**
 * Which plan steps a model could call in one turn: from a step on, the following steps
 * that need no result of a step in the same turn, none of them a write it would check
 * (a step with `verify`). Reading eight sources is one batch; fetch → transform → write
 * is none. A property of the plan alone, so it is worked out once per plan.
 */
const runs = new WeakMap<readonly PlanStep[], readonly (readonly number[])[]>();

function independentRuns(steps: readonly PlanStep[]): readonly (readonly number[])[] {
  const needs = steps.map(
    (step) => new Set(referencesIn(step.args, 'args').map((reference) => parseReference(reference.text)?.step ?? '')),
  );
  // Frozen: parallelSteps hands these arrays out as they are when they fit within `max`.
  return steps.map((first, from) => {
    if (first.verify !== undefined) return Object.freeze([from]);
    const batch = [from];
    for (let next = from + 1; next < steps.length; next++) {
      const step = steps[next]!;
      if (step.verify !== undefined || batch.some((index) => needs[next]!.has(steps[index]!.id))) break;
      batch.push(next);
    }
    return Object.freeze(batch);
  });
}

/** The steps from `from` on that could go in one turn with it (itself first), at most `max`. */
export function parallelSteps(steps: readonly PlanStep[], from: number, max: number): readonly number[] {
  let known = runs.get(steps);
  if (known === undefined) {
    known = independentRuns(steps);
    runs.set(steps, known);
  }
  const run = known[from] ?? [from];
  return run.length <= max ? run : run.slice(0, Math.max(1, max));
}
