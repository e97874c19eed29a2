import { didYouMean } from '../did-you-mean.js';
import { UserInputError } from '../user-input-error.js';

/** `toSurvive`'s options: the sweep to run and the bar it must clear. */
export interface SurviveOptions {
  /** Runs per scenario, on seeds `firstSeed`, `firstSeed + 1`, ... @default 100 */
  readonly seeds?: number;
  /** @default 1 */
  readonly firstSeed?: number;
  /** The sweep seed, the namespace of every random stream. @default 0 */
  readonly sweepSeed?: number;
  /** The least success rate each scenario must reach, from 0 to 1. @default 0.9 */
  readonly minSuccess?: number;
  /** Worker threads; more than 1 only for an agent given by module path (a definition object runs in this thread). @default 1 */
  readonly workers?: number;
  /** A results folder to write, as `run --out` does, for `report`, `compare` or an artifact. @default nothing written */
  readonly out?: string;
  /**
   * The module that exports the agent, when the agent is given as an object: a path (from
   * the working directory) or a `file:` URL, `#name` to pick an export. The failure
   * message's replay commands name it; without it they cannot be printed.
   * @default the agent's path when the agent is given as one
   */
  readonly module?: string | URL;
}

/** The options with their defaults, checked once. */
export interface ResolvedSurviveOptions {
  readonly seeds: number;
  readonly firstSeed: number;
  readonly sweepSeed: number;
  readonly minSuccess: number;
  readonly workers: number;
  readonly out: string | undefined;
  readonly module: string | URL | undefined;
}

const SOURCE = 'toSurvive';

function wholeNumber(value: number, field: string, least: number): number {
  if (!Number.isSafeInteger(value) || value < least)
    throw UserInputError.single(SOURCE, field, `a whole number of at least ${least}; got ${value}`);
  return value;
}

const OPTION_NAMES = [
  'seeds',
  'firstSeed',
  'sweepSeed',
  'minSuccess',
  'workers',
  'out',
  'module',
] as const satisfies readonly (keyof SurviveOptions)[];

/**
 * Fills in the defaults and refuses a bad value with one message naming the option.
 *
 * @example
 * resolveSurviveOptions({ seeds: 200 }) // { seeds: 200, firstSeed: 1, sweepSeed: 0, minSuccess: 0.9, workers: 1, ... }
 */
export function resolveSurviveOptions(options: SurviveOptions = {}): ResolvedSurviveOptions {
  // A misspelt option (minSucess) would leave its default in force without a word.
  for (const key of Object.keys(options))
    if (!(OPTION_NAMES as readonly string[]).includes(key))
      throw UserInputError.single(
        SOURCE,
        key,
        `one of the options ${OPTION_NAMES.join(', ')}; '${key}' is none${didYouMean(key, OPTION_NAMES)}`,
      );
  const minSuccess = options.minSuccess ?? 0.9;
  if (!(minSuccess >= 0 && minSuccess <= 1))
    throw UserInputError.single(SOURCE, 'minSuccess', `a rate from 0 to 1; got ${minSuccess}`);
  return Object.freeze({
    seeds: wholeNumber(options.seeds ?? 100, 'seeds', 1),
    firstSeed: wholeNumber(options.firstSeed ?? 1, 'firstSeed', 0),
    sweepSeed: wholeNumber(options.sweepSeed ?? 0, 'sweepSeed', 0),
    minSuccess,
    workers: wholeNumber(options.workers ?? 1, 'workers', 1),
    out: options.out,
    module: options.module,
  });
}
