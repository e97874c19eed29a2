import seedrandom from 'seedrandom';

/** A seeded source of uniform numbers in [0, 1). */
export interface Rng {
  next(): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

/**
 * The coordinates of a run's random streams. Every random choice in spiralbench is
 * drawn from a stream named by (sweep seed, scenario, run seed, purpose, index), so a
 * component that draws more numbers never shifts another component's draws.
 */
export interface StreamKey {
  readonly sweepSeed: number;
  readonly scenario: string;
  readonly runSeed: number;
}

class AleaRng implements Rng {
  readonly #prng: () => number;

  constructor(seed: string) {
    // Alea seeds in well under a microsecond, unlike seedrandom's default ARC4 (256
    // mixing rounds): streams are created per tool call and per model turn.
    this.#prng = seedrandom.alea(seed);
  }

  next(): number {
    return this.#prng();
  }

  chance(p: number): boolean {
    return p > 0 && this.#prng() < p;
  }

  int(n: number): number {
    return Math.floor(this.#prng() * n);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new RangeError('pick() needs a non-empty array');
    return item;
  }
}

const SEPARATOR = '\u241f';
const prefixes = new WeakMap<StreamKey, string>();

/** The stream for one purpose (e.g. `tool:get_user`) at one index (e.g. the call number). */
export function stream(key: StreamKey, purpose: string, index: number): Rng {
  let prefix = prefixes.get(key);
  if (prefix === undefined) {
    prefix = `${key.sweepSeed}${SEPARATOR}${key.scenario}${SEPARATOR}${key.runSeed}${SEPARATOR}`;
    prefixes.set(key, prefix);
  }
  return new AleaRng(`${prefix}${purpose}${SEPARATOR}${index}`);
}
