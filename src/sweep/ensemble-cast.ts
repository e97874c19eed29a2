import type { Scenario, ScenarioTexts } from '../scenarios/loader.js';
import type { Persona } from '../scenarios/persona-schema.js';

/** The persona a scenario gets when its file names none; the one an ensemble stands in for. */
export const DEFAULT_PERSONA = 'default';

/** Whether a scenario leaves its persona to the default, which an ensemble's members then play. */
export function usesDefaultPersona(texts: ScenarioTexts): boolean {
  return texts.persona.id === DEFAULT_PERSONA;
}

/**
 * The scenario once per ensemble member, each played by that member: built once per
 * thread, so a run only picks one. Undefined without an ensemble, and for a scenario that
 * names a persona of its own (stubborn, diligent): that persona is the point of the
 * scenario, so it keeps it and its runs carry no member.
 */
export function ensembleCast(
  scenario: Scenario,
  texts: ScenarioTexts,
  members: readonly Persona[] | undefined,
): readonly Scenario[] | undefined {
  if (members === undefined || !usesDefaultPersona(texts)) return undefined;
  return Object.freeze(members.map((persona) => Object.freeze({ ...scenario, persona })));
}

/**
 * The member that plays run seed `seed` of a sweep whose seeds start at `base`: every arm's
 * run with that seed meets the same member (and the same faults), so arms pair by seed.
 */
export function memberFor(seed: number, base: number, members: number): number {
  // A seed below the base (replay's default base is 1; seed 0 is a real seed) wraps
  // around like any other: JavaScript's % keeps the sign of a negative dividend.
  return (((seed - base) % members) + members) % members;
}
