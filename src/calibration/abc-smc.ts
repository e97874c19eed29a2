import { type Rng, type StreamKey, stream } from '../random/streams.js';
import { DIMENSIONS, drawPoint, type Point, stepFrom } from './prior-space.js';

/** A point of the prior cube to simulate, numbered in the order the sampler made it. */
export interface Candidate {
  readonly index: number;
  readonly point: Point;
}

/** Simulates candidates; the statistics come back in the batch's order. */
export type Evaluate<S> = (batch: readonly Candidate[]) => Promise<readonly S[]>;

/** A member of the population: a simulated candidate and how far its statistics are from the targets. */
export interface Particle<S> extends Candidate {
  readonly statistics: S;
  readonly distance: number;
}

/** One step of the tolerance schedule. */
export interface SmcIteration {
  /** The tolerance every particle was held to after this iteration. */
  readonly epsilon: number;
  /** Random-walk steps each resampled particle took. */
  readonly steps: number;
  readonly proposals: number;
  readonly accepted: number;
}

export interface SmcProgress {
  readonly stage: 'prior' | 'moves' | 'done';
  readonly iteration: number;
  /** The current tolerance (Infinity while the prior is drawn). */
  readonly epsilon: number;
  readonly candidates: number;
}

export interface SmcSettings<S> {
  /** Particles, and so members of the fitted ensemble. At least 4. */
  readonly particles: number;
  /** Seeds every choice of the sampler (draws, resampling, moves). */
  readonly seed: number;
  readonly evaluate: Evaluate<S>;
  /** How far a candidate's statistics are from the targets, in tolerances: at most 1 is a fit. */
  readonly distance: (statistics: S) => number;
  /** Draws from the prior the first population is chosen from. @default 10 × particles */
  readonly initialDraws?: number;
  readonly onProgress?: (progress: SmcProgress) => void;
}

export interface SmcResult<S> {
  /** Every particle within tolerance 1. When false, `particles` is the closest population reached. */
  readonly converged: boolean;
  /** In the order their candidates were made. */
  readonly particles: readonly Particle<S>[];
  readonly iterations: readonly SmcIteration[];
  /** Candidates simulated, the first population's prior draws included. */
  readonly candidates: number;
  /** Particles still sharing their candidate with another at the end (moves can be refused). */
  readonly duplicates: number;
}

/** The share of particles dropped each iteration: the tolerance becomes the median distance. */
const DROP_FRACTION = 0.5;
/** Steps are chosen so that a resampled particle moves at least once with this chance (Drovandi & Pettitt 2011). */
const MOVE_CHANCE = 0.99;
/** At most this many steps a particle per iteration, however rarely moves are accepted. */
const MAX_STEPS = 20;
/**
 * Below this share of accepted moves, over the last STALL_WINDOW proposals at least, the
 * schedule has stalled: the targets are out of reach of the priors.
 */
const MIN_ACCEPTANCE = 0.01;
const STALL_WINDOW = 100;
const MAX_ITERATIONS = 60;
/** How many times an iteration's steps a particle still identical to another takes at the end. */
const DUPLICATE_STEPS = 3;
/** The acceptance assumed before any move was tried. */
const FIRST_ACCEPTANCE = 0.5;
/** The smallest step scale: a coordinate on which the survivors agree still moves. */
const SCALE_FLOOR = 1e-3;

/** Steps a particle needs to move at least once with MOVE_CHANCE, when a share `acceptance` of moves is accepted. */
export function stepsFor(acceptance: number): number {
  if (acceptance >= MOVE_CHANCE) return 1;
  if (acceptance <= 0) return MAX_STEPS;
  return Math.min(MAX_STEPS, Math.max(1, Math.ceil(Math.log(1 - MOVE_CHANCE) / Math.log(1 - acceptance))));
}

const byDistance = <S>(a: Particle<S>, b: Particle<S>) => a.distance - b.distance || a.index - b.index;

/** The standard deviation of each coordinate over `particles`, floored: the random walk's scale. */
function scalesOf<S>(particles: readonly Particle<S>[]): number[] {
  return Array.from({ length: DIMENSIONS }, (_, i) => {
    let mean = 0;
    for (const particle of particles) mean += particle.point[i]!;
    mean /= particles.length;
    let squares = 0;
    for (const particle of particles) squares += (particle.point[i]! - mean) ** 2;
    return Math.max(SCALE_FLOOR, Math.sqrt(squares / Math.max(1, particles.length - 1)));
  });
}

/**
 * Approximate Bayesian computation by sequential Monte Carlo with an adaptive tolerance
 * schedule and MCMC moves (Drovandi & Pettitt 2011, "Estimation of parameters for
 * macroparasite population evolution using approximate Bayesian computation"):
 *
 *   draw initialDraws points from the prior; keep the closest N          (rejection ABC)
 *   repeat
 *     ε = max(1, the distance half of the particles are within)
 *     drop the particles farther than ε; copy survivors (at random) into their places
 *     move each copy R times: a Gaussian random-walk step (scale: the survivors' spread
 *       per coordinate), accepted when its fresh simulation is within ε
 *     R from the last iteration's acceptance, so a copy moves at least once with 99%
 *   until ε = 1 and every particle is within it
 *
 * The prior is uniform on the cube and the step symmetric, so a move is accepted on the
 * simulation alone. Particles keep equal weights throughout, which is what an ensemble
 * needs: each member stands for an equal share of the posterior. Every random choice
 * comes from a named stream and candidates are numbered before they are simulated, so
 * the result depends on the seed only, never on how `evaluate` spreads its batches.
 */
export async function abcSmc<S>(settings: SmcSettings<S>): Promise<SmcResult<S>> {
  const { particles: size, evaluate, distance } = settings;
  if (!Number.isSafeInteger(size) || size < 4) throw new RangeError(`abcSmc needs at least 4 particles, got ${size}`);
  const key: StreamKey = { sweepSeed: settings.seed, scenario: 'calibrate', runSeed: 0 };
  let candidates = 0;
  const simulate = async (points: readonly Point[]): Promise<Particle<S>[]> => {
    const batch = points.map((point) => ({ index: candidates++, point }));
    const statistics = await evaluate(batch);
    return batch.map((candidate, i) => {
      const s = statistics[i] as S;
      return { ...candidate, statistics: s, distance: distance(s) };
    });
  };
  const report = (stage: SmcProgress['stage'], iteration: number, epsilon: number) =>
    settings.onProgress?.({ stage, iteration, epsilon, candidates });

  // The first population: rejection ABC at the tolerance its N-th closest draw sets.
  const draws = settings.initialDraws ?? 10 * size;
  const drawn: Particle<S>[] = [];
  for (let first = 0; first < draws; first += size) {
    const points = Array.from({ length: Math.min(size, draws - first) }, (_, i) =>
      drawPoint(stream(key, 'prior', first + i)),
    );
    drawn.push(...(await simulate(points)));
    report('prior', 0, Number.POSITIVE_INFINITY);
  }
  let population = drawn.sort(byDistance).slice(0, size);

  const iterations: SmcIteration[] = [];
  let acceptance = FIRST_ACCEPTANCE;
  for (let iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
    population.sort(byDistance);
    const kept = Math.max(2, Math.ceil(size * (1 - DROP_FRACTION)));
    const epsilon = Math.max(1, population[kept - 1]!.distance);
    const alive = epsilon === 1 ? population.filter((p) => p.distance <= 1) : population.slice(0, kept);
    if (alive.length === size) return finish(population, iterations, candidates, 0);
    const steps = stepsFor(acceptance);
    const resample = stream(key, 'resample', iteration);
    const chains = Array.from({ length: size - alive.length }, () => alive[resample.int(alive.length)]!);
    const moved = await moveAll(chains, scalesOf(alive), steps, epsilon, simulate, (chain, step) =>
      stream(key, `move:${iteration}:${chain}`, step),
    );
    acceptance = moved.accepted / (chains.length * steps);
    iterations.push({ epsilon, steps, proposals: chains.length * steps, accepted: moved.accepted });
    population = [...alive, ...moved.chains];
    report('moves', iteration, epsilon);
    if (epsilon === 1) {
      // Every particle is within 1 now. Copies a refused walk left in place move on, with
      // steps half as long (more of them accepted), DUPLICATE_STEPS times as many: a number
      // fixed in advance, not "until it moves", so the moves keep the posterior as it is.
      const duplicates = await spreadDuplicates(
        population,
        scalesOf(population).map((scale) => scale / 2),
        DUPLICATE_STEPS * steps,
        simulate,
        key,
      );
      report('done', iteration, epsilon);
      return finish(duplicates.population, iterations, candidates, duplicates.left);
    }
    if (stalled(iterations)) break;
  }
  return { converged: false, particles: population, iterations, candidates, duplicates: 0 };
}

/** Whether the latest iterations, STALL_WINDOW proposals of them at least, accepted too few moves to go on. */
function stalled(iterations: readonly SmcIteration[]): boolean {
  let proposals = 0;
  let accepted = 0;
  for (let i = iterations.length - 1; i >= 0 && proposals < STALL_WINDOW; i--) {
    proposals += iterations[i]!.proposals;
    accepted += iterations[i]!.accepted;
  }
  return proposals >= STALL_WINDOW && accepted < MIN_ACCEPTANCE * proposals;
}

function finish<S>(
  population: readonly Particle<S>[],
  iterations: readonly SmcIteration[],
  candidates: number,
  duplicates: number,
): SmcResult<S> {
  const particles = [...population].sort((a, b) => a.index - b.index);
  return { converged: true, particles, iterations, candidates, duplicates };
}

/** Moves every chain `steps` times at tolerance `epsilon`, the chains' proposals simulated together each step. */
async function moveAll<S>(
  start: readonly Particle<S>[],
  scales: readonly number[],
  steps: number,
  epsilon: number,
  simulate: (points: readonly Point[]) => Promise<Particle<S>[]>,
  rngFor: (chain: number, step: number) => Rng,
): Promise<{ chains: Particle<S>[]; accepted: number }> {
  const chains = [...start];
  let accepted = 0;
  for (let step = 0; step < steps; step++) {
    const proposals = await simulate(chains.map((chain, j) => stepFrom(chain.point, scales, rngFor(j, step))));
    proposals.forEach((proposal, j) => {
      if (proposal.distance <= epsilon) {
        chains[j] = proposal;
        accepted += 1;
      }
    });
  }
  return { chains, accepted };
}

/** Particles sharing a candidate with an earlier one take `steps` more moves at tolerance 1; how many are left. */
async function spreadDuplicates<S>(
  population: readonly Particle<S>[],
  scales: readonly number[],
  steps: number,
  simulate: (points: readonly Point[]) => Promise<Particle<S>[]>,
  key: StreamKey,
): Promise<{ population: Particle<S>[]; left: number }> {
  const seen = new Set<number>();
  const copies: number[] = [];
  population.forEach((particle, slot) => {
    if (seen.has(particle.index)) copies.push(slot);
    seen.add(particle.index);
  });
  const result = [...population];
  if (copies.length > 0) {
    const moved = await moveAll(
      copies.map((slot) => population[slot]!),
      scales,
      steps,
      1,
      simulate,
      (chain, step) => stream(key, `spread:${chain}`, step),
    );
    copies.forEach((slot, j) => {
      result[slot] = moved.chains[j]!;
    });
  }
  return { population: result, left: result.length - new Set(result.map((p) => p.index)).size };
}
