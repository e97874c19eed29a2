import { InvalidArgumentError } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/fuzz-runs.js';
import { MAX_SEEDS_PER_CELL } from '../sweep/sweep-plan.js';
import {
  commaList,
  nonNegativeInt,
  nonNegativeNumber,
  positiveInt,
  seedCount,
  shardSpec,
  WORKERS_PER_CORE,
  workerCountFor,
} from './parse.js';

/**
 * The property of a flag parser: it returns a value that meets its own contract, or
 * throws commander's InvalidArgumentError with a message (commander prints it after the
 * flag and the value, and the CLI exits 2). Anything else thrown fails.
 */
function parsesOrRefuses<T>(parse: (value: string) => T, value: string, valid: (parsed: T) => boolean): void {
  let parsed: T;
  try {
    parsed = parse(value);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    expect(error.message).toMatch(/^expected .+\.$/);
    return;
  }
  expect(valid(parsed), `${JSON.stringify(value)} gave ${JSON.stringify(parsed)}`).toBe(true);
}

/** Strings a user might type for a number: digits of any length, signs, dots, exponents, spaces, slashes. */
const numberish = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[0-9]{0,40}$/),
  fc
    .array(fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', 'E', 'x', ' ', '/', '_', ',', '\n'), { maxLength: 30 })
    .map((chars) => chars.join('')),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double().map(String),
);

const wholeIn = (min: number, max: number) => (n: number) => Number.isSafeInteger(n) && n >= min && n <= max;

describe('flag parsers, on any text: a value within their contract or an InvalidArgumentError', () => {
  it('-n (seedCount): 1 to a billion', () => {
    fc.assert(
      fc.property(numberish, (value) => parsesOrRefuses(seedCount, value, wholeIn(1, MAX_SEEDS_PER_CELL))),
      { numRuns: fuzzRuns() },
    );
  });

  it('-w (workerCountFor): 1 to 4 a core, for any core count', () => {
    fc.assert(
      fc.property(numberish, fc.integer({ min: 1, max: 512 }), (value, cores) =>
        parsesOrRefuses(workerCountFor(cores), value, wholeIn(1, WORKERS_PER_CORE * cores)),
      ),
      { numRuns: fuzzRuns() },
    );
  });

  it('--shard (shardSpec): i/n with 1 <= i <= n, both exact', () => {
    const shardish = fc.oneof(
      numberish,
      fc.tuple(numberish, numberish).map(([a, b]) => `${a}/${b}`),
    );
    fc.assert(
      fc.property(shardish, (value) =>
        parsesOrRefuses(
          shardSpec,
          value,
          ({ index, count }) => wholeIn(1, Number.MAX_SAFE_INTEGER)(count) && wholeIn(1, count)(index),
        ),
      ),
      { numRuns: fuzzRuns() },
    );
  });

  it('the other number flags keep their contracts', () => {
    fc.assert(
      fc.property(numberish, (value) => {
        parsesOrRefuses(positiveInt, value, wholeIn(1, Number.MAX_SAFE_INTEGER));
        parsesOrRefuses(nonNegativeInt, value, wholeIn(0, Number.MAX_SAFE_INTEGER));
        parsesOrRefuses(nonNegativeNumber, value, (n) => Number.isFinite(n) && n >= 0);
        parsesOrRefuses(
          commaList,
          value,
          (items) => items.length > 0 && items.every((item) => item.trim() === item && item !== ''),
        );
      }),
      { numRuns: fuzzRuns() },
    );
  });
});
