import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { seedCount, shardSpec, workerCountFor } from './parse.js';

/** What a parser says when it refuses `value`. */
function refusal(parse: (value: string) => unknown, value: string): string {
  try {
    parse(value);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error.message;
    throw error;
  }
  throw new Error(`'${value}' was accepted`);
}

describe('seedCount (-n)', () => {
  it('accepts 1 to a billion runs a cell', () => {
    expect(seedCount('1')).toBe(1);
    expect(seedCount('1000000000')).toBe(1_000_000_000);
  });

  it('refuses zero, fractions, signs and anything past a billion, naming the range', () => {
    for (const value of ['0', '1.5', '+3', '-3', ' 3', '1000000001', '9007199254740991', '9'.repeat(400)])
      expect(refusal(seedCount, value)).toBe(
        'expected a whole number from 1 to 1000000000 (runs per scenario and arm).',
      );
  });
});

describe('workerCountFor (-w)', () => {
  it('accepts 1 to 4 threads a core', () => {
    expect(workerCountFor(2)('1')).toBe(1);
    expect(workerCountFor(2)('8')).toBe(8);
  });

  it('refuses more, naming the cap and the cores it comes from', () => {
    expect(refusal(workerCountFor(2), '9')).toBe('expected a whole number from 1 to 8 (4 per core, 2 cores here).');
    expect(refusal(workerCountFor(1), '1000')).toBe('expected a whole number from 1 to 4 (4 per core, 1 core here).');
    expect(refusal(workerCountFor(2), '0')).toMatch(/^expected a whole number from 1 to 8/);
  });
});

describe('shardSpec (--shard)', () => {
  it('accepts i/n with 1 <= i <= n', () => {
    expect(shardSpec('2/3')).toEqual({ index: 2, count: 3 });
    expect(shardSpec('9007199254740991/9007199254740991')).toEqual({
      index: Number.MAX_SAFE_INTEGER,
      count: Number.MAX_SAFE_INTEGER,
    });
  });

  it('refuses counts a double cannot hold exactly, and the rest', () => {
    for (const value of ['0/3', '4/3', '3', '99999999999999999999/99999999999999999999'])
      expect(refusal(shardSpec, value)).toBe('expected i/n with whole numbers 1 <= i <= n, e.g. 2/3.');
  });
});
