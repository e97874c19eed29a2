import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { TycheI } from './tyche-i.js';

/** seedrandom's tychei takes an integer seed as its state directly; the typings only admit strings. */
const reference = seedrandom.tychei as unknown as (seed: number) => () => number;

describe('TycheI', () => {
  it("draws exactly seedrandom's tychei sequence for integer seeds up to 53 bits", () => {
    for (const seed of [0, 1, 42, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, 6_004_799_503_160_661, 2 ** 53 - 1]) {
      const ours = new TycheI(seed);
      const theirs = reference(seed);
      const a = Array.from({ length: 50 }, () => ours.next());
      const b = Array.from({ length: 50 }, () => theirs());
      expect(a).toEqual(b);
    }
  });
});
