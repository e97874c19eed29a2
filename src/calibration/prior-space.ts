import {
  PERSONA_PARAMETERS,
  PERSONA_PRIORS,
  type PersonaParameter,
  withParameters,
} from '../model/simulated/persona-priors.js';
import type { Rng } from '../random/streams.js';
import type { Persona } from '../scenarios/persona-schema.js';

/**
 * The persona priors as a unit cube: a candidate is a point u in [0, 1]^D, one coordinate
 * per parameter in PERSONA_PARAMETERS order, and every prior is uniform on its range, so
 * the prior is uniform on the cube. The sampler draws and moves points here; a point
 * becomes a persona only to be simulated or written.
 */
export type Point = readonly number[];

export const DIMENSIONS = PERSONA_PARAMETERS.length;

/** Decimal places a drawn value keeps: the value simulated is the value written, to the digit. */
const DECIMALS = 4;

/** A parameter's value at coordinate `u` of its prior. */
export function valueAt(parameter: PersonaParameter, u: number): number {
  const { range, scale } = PERSONA_PRIORS[parameter];
  const [low, high] = range;
  // Whole numbers low..high take equal slices of [0, 1].
  if (scale === 'integer') return Math.min(high, low + Math.floor(u * (high - low + 1)));
  const scaled = 10 ** DECIMALS;
  return Math.round((low + (high - low) * u) * scaled) / scaled;
}

/** Every parameter's value at a point. */
export function parametersAt(point: Point): Record<PersonaParameter, number> {
  const values = {} as Record<PersonaParameter, number>;
  PERSONA_PARAMETERS.forEach((parameter, i) => {
    values[parameter] = valueAt(parameter, point[i]!);
  });
  return values;
}

/** The persona at a point: `base` (for its id and description) with every parameter set. */
export function personaAt(base: Persona, point: Point, id: string, description = ''): Persona {
  return { ...withParameters(base, parametersAt(point)), id, description };
}

/** A draw from the prior: every coordinate uniform. */
export function drawPoint(rng: Rng): number[] {
  return Array.from({ length: DIMENSIONS }, () => rng.next());
}

/** A standard normal draw (Box–Muller, one of the pair). */
export function normal(rng: Rng): number {
  const u = 1 - rng.next(); // in (0, 1], so the logarithm is finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * `x` folded back into [0, 1] at both walls. Reflection keeps a Gaussian random walk
 * symmetric (the chance of stepping from a to b is the chance of stepping from b to a),
 * so with a uniform prior a move is accepted on the simulation's word alone.
 */
export function reflect(x: number): number {
  const folded = ((x % 2) + 2) % 2;
  return folded > 1 ? 2 - folded : folded;
}

/** A random-walk step from `point`: each coordinate moved by a normal draw of its own scale, reflected. */
export function stepFrom(point: Point, scales: readonly number[], rng: Rng): number[] {
  return point.map((x, i) => reflect(x + scales[i]! * normal(rng)));
}
