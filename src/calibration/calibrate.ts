import type { ScenarioSource } from '../sweep/scenario-source.js';
import type { PersonaParameter } from '../model/simulated/persona-priors.js';
import type { EnsembleFileContent } from '../scenarios/persona-ensemble.js';
import type { Persona } from '../scenarios/persona-schema.js';
import { UserInputError } from '../user-input-error.js';
import { VERSION } from '../version.js';
import { abcSmc, type SmcIteration, type SmcProgress } from './abc-smc.js';
import { baselineRunner } from './baseline-pool.js';
import { type BaselineRuns, statisticsOf } from './baseline-runs.js';
import { parametersAt, personaAt } from './prior-space.js';
import {
  band,
  DEFAULT_TOLERANCES,
  distance,
  type Statistics,
  TARGET_NAMES,
  TARGET_SPECS,
  type Targets,
  targetsBehaviour,
  reportedTargets,
  type Tolerances,
  type TargetName,
} from './targets.js';

/** Everything a fit depends on; the same options give the same ensemble, byte for byte. */
export interface CalibrationOptions {
  /** The scenario, and how the command line named it (its id or its file's path as given). */
  readonly source: ScenarioSource & { readonly ref: string };
  readonly targets: Targets;
  /** @default DEFAULT_TOLERANCES */
  readonly tolerances?: Tolerances;
  /** Members of the ensemble (the sampler's particles). @default 40 */
  readonly members?: number;
  /** Seeds the sampler and names the fitting runs' sweep seed. @default 1 */
  readonly seed?: number;
  /** Runs of the baseline arm a candidate's statistics come from. @default 400 */
  readonly seedsPerCandidate?: number;
  /** Worker threads; the ensemble is the same for any count. @default 1 */
  readonly workers?: number;
  readonly onProgress?: (progress: CalibrationProgress) => void;
}

export type CalibrationProgress = SmcProgress | { readonly stage: 'validation'; readonly candidates: number };

export const DEFAULT_MEMBERS = 40;
export const DEFAULT_SEEDS_PER_CANDIDATE = 400;
export const DEFAULT_CALIBRATION_SEED = 1;

/**
 * The fitting runs' first run seed. Far above the seeds sweeps use (1, 2, ...), so the
 * fresh seeds the fit is validated on, those of `run --ensemble`, were never fitted to.
 */
export const FIT_FIRST_SEED = 1_000_000_001;

/** Statistics of a member: on the seeds it was accepted on, and on fresh ones. */
export interface MemberFit {
  readonly persona: Persona;
  /** The candidate it was (its fitting seeds are FIT_FIRST_SEED + candidate × seeds a candidate, onward). */
  readonly candidate: number;
  readonly fitting: Statistics;
  readonly fresh: Statistics;
}

export interface Calibration {
  readonly options: Required<Omit<CalibrationOptions, 'onProgress' | 'source'>> & {
    readonly scenario: { readonly ref: string; readonly id: string; readonly hash: string };
  };
  readonly members: readonly MemberFit[];
  /** The fresh runs of every member together: what `run --ensemble <file> -a none` shows. */
  readonly pooled: Statistics;
  readonly iterations: readonly SmcIteration[];
  readonly candidates: number;
  readonly duplicates: number;
  /** The command that makes this ensemble again (with `--out <file>`). */
  readonly command: string;
}

/**
 * Fits a persona ensemble to a scenario's no-safeguard statistics by ABC-SMC (abc-smc.ts),
 * then runs each member on fresh seeds to show how the fit holds off the seeds it was
 * chosen on. Throws a UserInputError naming --target when the priors cannot reach the
 * targets.
 */
export async function calibrate(options: CalibrationOptions): Promise<Calibration> {
  const { source, targets } = options;
  const tolerances = options.tolerances ?? DEFAULT_TOLERANCES;
  const members = options.members ?? DEFAULT_MEMBERS;
  const seed = options.seed ?? DEFAULT_CALIBRATION_SEED;
  const perCandidate = options.seedsPerCandidate ?? DEFAULT_SEEDS_PER_CANDIDATE;
  const workers = options.workers ?? 1;
  const runner = baselineRunner(source, workers);
  const behaviour = targetsBehaviour(targets);
  try {
    const smc = await abcSmc<Statistics>({
      particles: members,
      seed,
      distance: (statistics) => distance(statistics, targets, tolerances),
      evaluate: async (batch) =>
        (
          await runner.run(
            batch.map((candidate) => ({
              parameters: parametersAt(candidate.point),
              seeds: {
                sweepSeed: seed,
                first: FIT_FIRST_SEED + candidate.index * perCandidate,
                step: 1,
                count: perCandidate,
              },
              ...(behaviour ? { behaviour } : {}),
            })),
          )
        ).map((runs) => statisticsOf([runs])),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    if (!smc.converged)
      throw unreachable(
        smc.particles.map((particle) => particle.statistics),
        targets,
        tolerances,
        smc.candidates,
      );

    // Fresh seeds, assigned as a sweep with the ensemble assigns them: run seed s (from 1)
    // meets member (s - 1) mod M, under sweep seed 0.
    options.onProgress?.({ stage: 'validation', candidates: smc.candidates });
    const width = String(members - 1).length;
    const personas = smc.particles.map((particle, m) =>
      personaAt(
        source.scenario.persona,
        particle.point,
        `member-${String(m).padStart(width, '0')}`,
        `fitted to ${source.scenario.id} (arm none), candidate ${particle.index}`,
      ),
    );
    const fresh: BaselineRuns[] = await runner.run(
      smc.particles.map((particle, m) => ({
        parameters: parametersAt(particle.point),
        seeds: { sweepSeed: 0, first: 1 + m, step: members, count: perCandidate },
        ...(behaviour ? { behaviour } : {}),
      })),
    );
    return {
      options: {
        scenario: { ref: source.ref, id: source.scenario.id, hash: source.scenario.hash },
        targets,
        tolerances,
        members,
        seed,
        seedsPerCandidate: perCandidate,
        workers,
      },
      members: smc.particles.map((particle, m) => ({
        persona: personas[m]!,
        candidate: particle.index,
        fitting: particle.statistics,
        fresh: statisticsOf([fresh[m]!]),
      })),
      pooled: statisticsOf(fresh),
      iterations: smc.iterations,
      candidates: smc.candidates,
      duplicates: smc.duplicates,
      command: calibrateCommand(source.ref, targets, tolerances, members, seed, perCandidate),
    };
  } finally {
    await runner.close();
  }
}

/** The targets as `--target` takes them, in TARGET_NAMES order. */
function pairsText(values: Readonly<Partial<Record<string, number>>>, names: readonly string[]): string {
  return names
    .filter((name) => values[name] !== undefined)
    .map((name) => `${name}=${values[name]}`)
    .join(',');
}

/** The command that fits this ensemble again; --out is the caller's. */
export function calibrateCommand(
  scenario: string,
  targets: Targets,
  tolerances: Tolerances,
  members: number,
  seed: number,
  perCandidate: number,
): string {
  const changed = TARGET_NAMES.filter((name) => tolerances[name] !== DEFAULT_TOLERANCES[name]);
  return [
    'spiralbench calibrate',
    `--scenario ${scenario}`,
    `--target ${pairsText(targets, TARGET_NAMES)}`,
    ...(changed.length === 0 ? [] : [`--tolerance ${pairsText(tolerances, changed)}`]),
    `--members ${members}`,
    `--seed ${seed}`,
    `--seeds-per-candidate ${perCandidate}`,
  ].join(' ');
}

function unreachable(
  closest: readonly Statistics[],
  targets: Targets,
  tolerances: Tolerances,
  candidates: number,
): UserInputError {
  const misses = TARGET_NAMES.filter((name) => targets[name] !== undefined).map((name) => {
    const values = closest.map((statistics) => statistics[name]).sort((a, b) => a - b);
    const [low, high] = band(name, targets[name]!, tolerances[name]);
    return `${name} ${round(values[Math.floor(values.length / 2)]!)} (band ${round(low)}–${round(high)})`;
  });
  return UserInputError.single(
    '--target',
    '',
    `targets the persona priors can reach together; after ${candidates} candidates the closest personas stalled at ${misses.join(', ')}. Widen --tolerance, or check the targets describe this scenario without safeguards`,
  );
}

const round = (value: number, digits = 3): number => Number(value.toPrecision(digits));

/**
 * min, median and max of one statistic across members; a member whose runs counted
 * nothing for it (a behaviour statistic's NaN) is left out, and NaN stands for none at all.
 */
export function spread(values: readonly number[]): { median: number; min: number; max: number } {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median: round(median, 4), min: round(sorted[0]!, 4), max: round(sorted[sorted.length - 1]!, 4) };
}

/**
 * Each reported statistic's spread across members, on the fitting seeds and on fresh
 * ones, and pooled: the outcome figures always, a behaviour figure when it was a target.
 */
export function targetSpreads(calibration: Calibration) {
  const { targets, tolerances } = calibration.options;
  return reportedTargets(targets).map((name) => ({
    name,
    target: targets[name],
    band: targets[name] === undefined ? undefined : band(name, targets[name], tolerances[name]),
    fitting: spread(calibration.members.map((member) => member.fitting[name])),
    fresh: spread(calibration.members.map((member) => member.fresh[name])),
    pooled: round(calibration.pooled[name], 4),
  }));
}

/** The members' values of one parameter. */
export function memberValues(calibration: Calibration, parameter: PersonaParameter): number[] {
  const [group, field] = parameter.split('.') as [string, string];
  return calibration.members.map(
    (member) => (member.persona as unknown as Record<string, Record<string, number>>)[group]![field]!,
  );
}

const statisticsRow = (statistics: Statistics, names: readonly TargetName[]) =>
  Object.fromEntries(names.map((name) => [name, round(statistics[name], 4)]));

/** The ensemble file: a header saying what it is, the provenance of the fit, and the members. */
export function ensembleFile(calibration: Calibration): EnsembleFileContent {
  const { options } = calibration;
  const last = calibration.iterations[calibration.iterations.length - 1];
  const reported = reportedTargets(options.targets);
  return {
    header: [
      `spiralbench persona ensemble: ${calibration.members.length} personas, each reproducing ${options.scenario.id}'s`,
      'no-safeguard baseline within tolerance. Written by `spiralbench calibrate` (its command is under',
      'provenance: add --out <file>); used by `spiralbench run --ensemble <file>`. Each member is a full',
      'persona (src/scenarios/persona-schema.ts) drawn from the priors of src/model/simulated/persona-priors.ts',
      'and kept by approximate Bayesian computation (docs/calibration.md). Parameters with basis `prior`',
      'are not set by the fit: across the members they spread as their priors do.',
    ],
    provenance: {
      command: calibration.command,
      spiralbench: VERSION,
      scenario: { id: options.scenario.id, hash: options.scenario.hash },
      arm: 'none',
      method:
        'ABC-SMC, adaptive tolerance schedule with MCMC moves (Drovandi & Pettitt 2011); distance: the largest deviation of a target in tolerances',
      seed: options.seed,
      seeds_per_candidate: options.seedsPerCandidate,
      targets: { ...options.targets },
      tolerances: Object.fromEntries(
        TARGET_NAMES.filter((name) => options.targets[name] !== undefined).map((name) => [
          name,
          { [TARGET_SPECS[name].compare]: options.tolerances[name] },
        ]),
      ),
      candidates: calibration.candidates,
      runs: calibration.candidates * options.seedsPerCandidate,
      tolerance_schedule: calibration.iterations.map((iteration) => round(iteration.epsilon, 3)),
      acceptance_rate: round(calibration.members.length / calibration.candidates, 3),
      final_move_acceptance: last === undefined ? null : round(last.accepted / last.proposals, 3),
      duplicate_members: calibration.duplicates,
      fitting_seeds: `sweep seed ${options.seed}; candidate c runs seeds ${FIT_FIRST_SEED} + c × ${options.seedsPerCandidate} onward`,
      fresh_seeds: `sweep seed 0; run seed s (from 1) meets member (s - 1) mod ${calibration.members.length}, as run --ensemble assigns them`,
      fit: Object.fromEntries(
        targetSpreads(calibration).map(({ name, fitting, fresh, pooled }) => [
          name,
          {
            fitting_median: fitting.median,
            fitting_min: fitting.min,
            fitting_max: fitting.max,
            fresh_median: fresh.median,
            fresh_min: fresh.min,
            fresh_max: fresh.max,
            pooled_fresh: pooled,
          },
        ]),
      ),
      fitting_statistics: calibration.members.map((member) => statisticsRow(member.fitting, reported)),
      fresh_statistics: calibration.members.map((member) => statisticsRow(member.fresh, reported)),
    },
    members: calibration.members.map((member) => member.persona),
  };
}
