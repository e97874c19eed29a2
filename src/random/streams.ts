import { TycheI } from './tyche-i.js';

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

/** A Tyche-i generator is the stream itself: one object per stream, not a wrapper around one. */
class SeededRng extends TycheI implements Rng {
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new RangeError('pick() needs a non-empty array');
    return item;
  }
}

/**
 * cyrb53 (bryc, public domain): a fast 53-bit string hash, its state kept in the open so
 * the state after a run's key prefix can be kept and a stream's name absorbed piece by
 * piece (purpose, separator, index) without building the name as a string: a fresh
 * concatenated string is flattened before it can be read, which cost as much as the hash.
 */
class Cyrb53 {
  constructor(
    public h1: number,
    public h2: number,
  ) {}

  /** Starts again from a kept state (see `stream`). */
  resume(from: { readonly h1: number; readonly h2: number }): this {
    this.h1 = from.h1;
    this.h2 = from.h2;
    return this;
  }

  absorb(text: string): this {
    let { h1, h2 } = this;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  digest(): number {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
}

const SEPARATOR = '\u241f';

/**
 * The hash state after the last key's prefix `sweepSeed␟scenario␟runSeed␟`, with the
 * key's values it was made from. A run draws all its streams (one per model turn, per
 * model-fault draw, per tool execution) from one key, so one entry is enough; it is
 * matched by value, not by the key object, so it is a pure memo whatever the caller does
 * with its keys (where a WeakMap entry per run's key object cost more than the hash).
 */
let lastPrefix: {
  readonly sweepSeed: number;
  readonly scenario: string;
  readonly runSeed: number;
  readonly h1: number;
  readonly h2: number;
} | null = null;

function prefixOf(key: StreamKey): { readonly h1: number; readonly h2: number } {
  const last = lastPrefix;
  if (
    last !== null &&
    last.runSeed === key.runSeed &&
    last.scenario === key.scenario &&
    last.sweepSeed === key.sweepSeed
  )
    return last;
  const hash = new Cyrb53(0xdeadbeef, 0x41c6ce57).absorb(
    `${key.sweepSeed}${SEPARATOR}${key.scenario}${SEPARATOR}${key.runSeed}${SEPARATOR}`,
  );
  lastPrefix = { sweepSeed: key.sweepSeed, scenario: key.scenario, runSeed: key.runSeed, h1: hash.h1, h2: hash.h2 };
  return lastPrefix;
}

/** One hash state for every stream's name: `stream` uses it from start to digest, with nothing in between. */
const scratch = new Cyrb53(0, 0);

/**
 * The stream for one purpose (e.g. `tool:get_user`) at one index (e.g. the call number).
 * The full name `sweepSeed␟scenario␟runSeed␟purpose␟index` is hashed to a 53-bit integer
 * that seeds a Tyche-i generator: a few hundred ns a stream, where seeding Alea with the
 * name as a string took 8 µs (streams are made per tool execution and per model turn).
 */
export function stream(key: StreamKey, purpose: string, index: number): Rng {
  return new SeededRng(scratch.resume(prefixOf(key)).absorb(purpose).absorb(SEPARATOR).absorb(String(index)).digest());
}
