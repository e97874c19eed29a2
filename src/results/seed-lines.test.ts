import { describe, expect, it } from 'vitest';
import { SeedLines } from './seed-lines.js';

describe('SeedLines', () => {
  it('gives the line a seed was first read on, across blocks, far apart and past 2^32 lines', () => {
    const lines = new SeedLines();
    for (const [seed, line] of [
      [0, 1],
      [511, 2],
      [512, 3],
      [2 ** 53 - 2, 2 ** 33],
    ] as const)
      expect(lines.add(seed, line)).toBe(0);
    expect(lines.add(511, 9)).toBe(2);
    expect(lines.add(512, 9)).toBe(3);
    expect(lines.add(2 ** 53 - 2, 9)).toBe(2 ** 33);
    expect(lines.add(1, 9)).toBe(0);
  });
});
